import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import UndoIcon from '@mui/icons-material/Undo';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import { ConfirmDialog, DateText, FormDialog, useToast } from '../../components';
import type { PatientMerge, PatientRow } from './api';
import { mergeRunning, patientLabel } from './logic';
import { MergeProgressBar, useMergeProgress } from './MergeProgress';
import { errorMessage, usePatientMethods, usePatientsT } from './usePatients';

const STATUS_COLOR = {
  RUNNING: 'info',
  DONE: 'success',
  UNDOING: 'warning',
  UNDONE: 'default',
} as const;

const undoneByName = (m: PatientMerge) =>
  typeof m.undoneBy === 'string' ? m.undoneBy : (m.undoneBy?.name ?? '');

/**
 * The patient page's "Merged patients" (CAN_MERGE_PATIENTS): the merges into this patient, newest first, each with
 * its duplicates, who and when, how many requisitions moved, and Undo (enabled while the server says `undoable`,
 * else its reason). Undo asks first, then follows the server's run like the merge dialog. Nothing shows for a
 * patient nothing was merged into. A running merge or undo is polled every second.
 */
export function MergedPatientsPanel(props: { patient: PatientRow; onChanged: () => void }) {
  const { patient, onChanged } = props;
  const t = usePatientsT();
  const toast = useToast();
  const api = usePatientMethods();
  const [confirm, setConfirm] = useState<PatientMerge | null>(null);
  const [busy, setBusy] = useState(false);
  const [undoing, setUndoing] = useState<PatientMerge | null>(null);
  const q = useQuery({
    queryKey: ['patients', 'merges', patient.id],
    retry: false,
    queryFn: () => api.getPatientMerges({ patientId: patient.id }).then((r) => r.data),
    refetchInterval: (query) => ((query.state.data ?? []).some(mergeRunning) ? 1000 : false),
  });
  const { merge: progress, problem } = useMergeProgress(undoing, (m) => {
    if (m.status === 'UNDONE') {
      toast('success', t('patients.merging.undone'));
      void q.refetch();
      onChanged();
      // the bar stays at 100 % a moment, then the dialog closes
      setTimeout(() => setUndoing(null), 1500);
    }
  });

  const undo = async (m: PatientMerge) => {
    setBusy(true);
    try {
      const { data } = await api.undoPatientMerge({ mergeId: m.id });
      setConfirm(null);
      setUndoing(data);
    } catch (e) {
      setConfirm(null);
      toast('error', errorMessage(e, t('patients.merging.undoFailed')));
      void q.refetch();
    } finally {
      setBusy(false);
    }
  };

  if (q.error) {
    return (
      <Alert severity="error" sx={{ mb: 2 }} data-testid="patient-merges-error">
        {errorMessage(q.error, t('patients.merging.loadFailed'))}
      </Alert>
    );
  }
  const merges = q.data ?? [];
  if (!merges.length) return null;
  const head = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

  return (
    <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, mb: 2 }} data-testid="patient-merges">
      <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
        {t('patients.merging.panel')}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={head}>{t('patients.merging.col.duplicates')}</TableCell>
              <TableCell sx={head}>{t('patients.merging.col.on')}</TableCell>
              <TableCell sx={head}>{t('patients.merging.col.by')}</TableCell>
              <TableCell sx={head}>{t('patients.merging.col.requisitions')}</TableCell>
              <TableCell sx={head}>{t('patients.merging.col.status')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {merges.map((m) => (
              <TableRow key={m.id} data-testid={`patient-merge-${m.id}`}>
                <TableCell>
                  {m.sources.map((s) => (
                    <Box key={s.id}>
                      <Link component={RouterLink} to={`/patient/${encodeURIComponent(s.id)}`}>
                        {patientLabel(s)}
                      </Link>
                    </Box>
                  ))}
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <DateText value={m.createdOn} />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.createdBy?.name ?? ''}</TableCell>
                <TableCell>{m.status === 'RUNNING' ? `${m.moved} / ${m.total}` : m.total}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={STATUS_COLOR[m.status] ?? 'default'}
                    variant={m.status === 'UNDONE' ? 'outlined' : 'filled'}
                    label={t(`patients.merging.status.${m.status}`)}
                    data-testid={`patient-merge-status-${m.id}`}
                  />
                  {m.status === 'UNDONE' && undoneByName(m) ? (
                    <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
                      {t('patients.merging.undoneBy', { name: undoneByName(m) })}{' '}
                      <DateText value={m.undoneOn} />
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right" sx={{ minWidth: 120 }}>
                  {m.status === 'DONE' ? (
                    <Tooltip title={m.undoable ? '' : (m.undoBlockedReason ?? '')} placement="left">
                      {/* a disabled button gets no pointer events: the tooltip sits on its wrapper */}
                      <span>
                        <Button
                          size="small"
                          variant="outlined"
                          startIcon={<UndoIcon />}
                          disabled={!m.undoable}
                          onClick={() => setConfirm(m)}
                          data-testid={`patient-merge-undo-${m.id}`}
                        >
                          {t('patients.merging.undo')}
                        </Button>
                      </span>
                    </Tooltip>
                  ) : null}
                  {m.status === 'DONE' && !m.undoable && m.undoBlockedReason ? (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      sx={{ display: 'block', mt: 0.5, maxWidth: 260, ml: 'auto', textAlign: 'right' }}
                      data-testid={`patient-merge-blocked-${m.id}`}
                    >
                      {m.undoBlockedReason}
                    </Typography>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <ConfirmDialog
        open={Boolean(confirm)}
        kind="warning"
        title={t('patients.merging.undoTitle')}
        message={
          confirm
            ? t('patients.merging.undoConfirm', {
                sources: confirm.sources.map((s) => patientLabel(s)).join(', '),
                target: patientLabel(patient),
              })
            : ''
        }
        loading={busy}
        onConfirm={() => (confirm ? undo(confirm) : undefined)}
        onClose={() => setConfirm(null)}
      />
      {progress ? (
        <FormDialog
          title={t('patients.merging.undoTitle')}
          onClose={() => {
            setUndoing(null);
            void q.refetch();
          }}
          locked
          testId="undo-progress-dialog"
          dividers
          cancelLabel={t('patients.merging.close')}
        >
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {progress.status === 'UNDONE' ? t('patients.merging.undone') : t('patients.merging.undoRunning')}
          </Typography>
          <MergeProgressBar merge={progress} problem={problem} />
        </FormDialog>
      ) : null}
    </Paper>
  );
}
