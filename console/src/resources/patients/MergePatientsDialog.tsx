import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import CallMergeIcon from '@mui/icons-material/CallMerge';
import { FormDialog } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { MergePreview, PatientRow } from './api';
import { conflictRows, patientLabel, type ConflictRow } from './logic';
import { MergePickStep } from './MergePickStep';
import { MergeProgressBar } from './MergeProgress';
import { useMergePatients, type MergePatientsState } from './useMergePatients';
import { errorMessage, usePatientsT } from './usePatients';

const cell = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

/** A count of what the merge moves. */
function MoveCount(props: { count: number; label: string; testId: string }) {
  return (
    <Box>
      <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid={props.testId}>
        {props.count}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {props.label}
      </Typography>
    </Box>
  );
}

/** The primary and the duplicates, and what moves to the primary. */
function MergePreviewSummary({ preview, duplicates }: { preview: MergePreview; duplicates: PatientRow[] }) {
  const t = usePatientsT();
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
        gap: 2,
        mb: 2,
      }}
    >
      <Paper variant="outlined" sx={{ p: 1.5, borderRadius: 1.5 }}>
        <Typography variant="caption" color="text.secondary">
          {t('patients.merging.primary')}
        </Typography>
        <Typography variant="body1" sx={{ fontWeight: 600 }} data-testid="merge-preview-primary">
          {patientLabel(preview.target)}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          {t('patients.merging.duplicates', { n: duplicates.length })}
        </Typography>
        {duplicates.map((d) => (
          <Typography key={d.id} variant="body2">
            {patientLabel(d)}
          </Typography>
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 1.5, borderRadius: 1.5 }} data-testid="merge-preview-moves">
        <Typography variant="caption" color="text.secondary">
          {t('patients.merging.moves')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 4, mt: 0.5 }}>
          <MoveCount
            count={preview.moves.requisitions}
            label={t('patients.merging.requisitions')}
            testId="merge-moves-requisitions"
          />
          <MoveCount
            count={preview.moves.billingEntries}
            label={t('patients.merging.billingEntries')}
            testId="merge-moves-billing"
          />
        </Box>
      </Paper>
    </Box>
  );
}

/** The fields that differ: the primary's value (kept) and each duplicate's (struck through where it differs). */
function MergeConflicts({ rows, duplicates }: { rows: ConflictRow[]; duplicates: PatientRow[] }) {
  const t = usePatientsT();
  /** the field's name in the user's language, else the server's label */
  const fieldLabel = (field: string, serverLabel: string) => {
    const key = `patients.merging.fieldName.${field}`;
    const text = t(key);
    return text === key ? serverLabel : text;
  };
  return (
    <>
      <Alert severity="info" sx={{ mb: 1, py: 0 }} data-testid="merge-kept">
        {t('patients.merging.kept')}
      </Alert>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="merge-conflicts">
          <TableHead>
            <TableRow>
              <TableCell sx={cell}>{t('patients.merging.field')}</TableCell>
              <TableCell sx={cell}>{t('patients.merging.primaryKept')}</TableCell>
              {duplicates.map((d) => (
                <TableCell key={d.id} sx={cell}>
                  {patientLabel(d)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={r.field} data-testid={`merge-conflict-${r.field}`}>
                <TableCell sx={{ fontWeight: 500 }}>{fieldLabel(r.field, r.label)}</TableCell>
                <TableCell sx={{ fontWeight: 600, color: 'success.dark' }}>{r.primary || '—'}</TableCell>
                {r.duplicates.map((v, i) => (
                  <TableCell
                    key={i}
                    sx={
                      r.differs[i] ? { color: 'text.secondary', textDecoration: 'line-through' } : undefined
                    }
                  >
                    {v || '—'}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </>
  );
}

/** Step 2: the preview (what moves, which fields conflict) and the merge call's problem. */
function MergePreviewStep({ duplicates, m }: { duplicates: PatientRow[]; m: MergePatientsState }) {
  const { preview } = m;
  const t = usePatientsT();
  const label = useEnumLabel();
  // the duplicates, in the preview's words when it has them (fresh from the server)
  const shownDuplicates = preview.data?.sources?.length ? preview.data.sources : duplicates;
  const rows = preview.data
    ? conflictRows(
        preview.data.conflicts,
        shownDuplicates.map((d) => d.id),
        label,
      )
    : [];
  return (
    <>
      {preview.isLoading ? (
        <Box sx={{ py: 4, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress />
        </Box>
      ) : preview.error ? (
        <Alert severity="error" data-testid="merge-preview-error">
          {errorMessage(preview.error, t('patients.merging.previewFailed'))}
        </Alert>
      ) : preview.data ? (
        <Box data-testid="merge-preview">
          <MergePreviewSummary preview={preview.data} duplicates={shownDuplicates} />
          <Typography variant="subtitle2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('patients.merging.conflicts')}
          </Typography>
          {rows.length ? (
            <MergeConflicts rows={rows} duplicates={shownDuplicates} />
          ) : (
            <Typography variant="body2" color="text.secondary" data-testid="merge-no-conflicts">
              {t('patients.merging.noConflicts')}
            </Typography>
          )}
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            {t('patients.merging.explain')}
          </Typography>
        </Box>
      ) : null}
      {m.problem ? (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="merge-problem">
          {m.problem}
        </Alert>
      ) : null}
    </>
  );
}

/** Step 3: the server's run to 100 %; it may be left running in the background. */
function MergeProgressStep({ m }: { m: MergePatientsState }) {
  const { merge, primary } = m;
  const t = usePatientsT();
  return merge ? (
    <Box sx={{ py: 1 }}>
      <Typography variant="body1" sx={{ fontWeight: 600, mb: 0.5 }}>
        {primary ? `${t('patients.merging.primary')}: ${patientLabel(primary)}` : null}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {merge.status === 'DONE' ? t('patients.merging.merged') : t('patients.merging.running')}
      </Typography>
      <MergeProgressBar merge={merge} problem={m.progressProblem} />
      {merge.status === 'DONE' ? null : (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
          {t('patients.merging.background')}
        </Typography>
      )}
    </Box>
  ) : null;
}

/**
 * Merge Patients (spec 2 sections 2.6, 5, 6): the selected rows are the duplicates; the user searches and picks the
 * primary (400 ms debounce, 20 results, the duplicates excluded), sees what moves and which fields conflict (the
 * primary's values are kept), merges, and follows the server's run to 100 %.
 */
export function MergePatientsDialog(props: {
  duplicates: PatientRow[];
  onClose: () => void;
  /** the merge finished (or was left running in the background): refresh the list, clear the selection */
  onMerged: () => void;
}) {
  const { duplicates, onClose, onMerged } = props;
  const t = usePatientsT();
  const m = useMergePatients(duplicates, onClose, onMerged);
  const { step, busy } = m;

  return (
    <FormDialog
      title={
        <>
          <CallMergeIcon color="primary" />
          {t('patients.merging.title')}
        </>
      }
      titleSx={{ display: 'flex', alignItems: 'center', gap: 1 }}
      onClose={onClose}
      locked={step === 'progress' || busy}
      maxWidth="md"
      testId="merge-dialog"
      dividers
      actionsSx={{ px: 3, py: 1.5 }}
      actions={<MergeActions m={m} onClose={onClose} onMerged={onMerged} />}
    >
      {step === 'pick' ? (
        <MergePickStep duplicates={duplicates} m={m} />
      ) : step === 'preview' ? (
        <MergePreviewStep duplicates={duplicates} m={m} />
      ) : (
        <MergeProgressStep m={m} />
      )}
    </FormDialog>
  );
}

/** The merge's buttons: Cancel, Back and Preview or Merge; Close once it runs. */
function MergeActions({
  m,
  onClose,
  onMerged,
}: {
  m: MergePatientsState;
  onClose: () => void;
  onMerged: () => void;
}) {
  const t = usePatientsT();
  const { step, busy } = m;
  return step === 'progress' ? (
    <Button
      onClick={() => {
        if (m.merge?.status !== 'DONE') onMerged();
        onClose();
      }}
      data-testid="merge-close"
    >
      {t('patients.merging.close')}
    </Button>
  ) : (
    <>
      <Button onClick={onClose} disabled={busy} color="inherit">
        {t('patients.merging.cancel')}
      </Button>
      {step === 'preview' ? (
        <Button onClick={m.back} disabled={busy} data-testid="merge-back">
          {t('patients.merging.back')}
        </Button>
      ) : null}
      {step === 'pick' ? (
        <Button
          variant="contained"
          disabled={!m.primary}
          onClick={() => m.setStep('preview')}
          data-testid="merge-preview-next"
        >
          {t('patients.merging.preview')}
        </Button>
      ) : (
        <Button
          variant="contained"
          disabled={busy || !m.preview.data}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <CallMergeIcon />}
          onClick={() => void m.doMerge()}
          data-testid="merge-submit"
        >
          {t('patients.merging.merge')}
        </Button>
      )}
    </>
  );
}
