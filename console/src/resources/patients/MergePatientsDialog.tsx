import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  InputAdornment,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Radio,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import CallMergeIcon from '@mui/icons-material/CallMerge';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebounced, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { PatientMerge, PatientRow } from './api';
import {
  conflictRows,
  displayDay,
  MERGE_SEARCH_DEBOUNCE_MS,
  MERGE_SEARCH_SIZE,
  patientLabel,
  primaryProblem,
  primaryResults,
  primarySearchFilter,
} from './logic';
import { MergeProgressBar, useMergeProgress } from './MergeProgress';
import { errorMessage, usePatientMethods, usePatientsT } from './usePatients';

type Step = 'pick' | 'preview' | 'progress';
/** how long the finished bar (100 %) stays before the dialog closes */
const DONE_SHOWN_MS = 1500;

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
  const label = useEnumLabel();
  const toast = useToast();
  const api = usePatientMethods();
  const dupIds = useMemo(() => duplicates.map((d) => d.id), [duplicates]);
  const [step, setStep] = useState<Step>('pick');
  const [text, setText] = useState('');
  const q = useDebounced(text, MERGE_SEARCH_DEBOUNCE_MS);
  const [primary, setPrimary] = useState<PatientRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [started, setStarted] = useState<PatientMerge | null>(null);

  const search = useQuery({
    queryKey: ['patients', 'merge-primary', q, dupIds],
    enabled: step === 'pick',
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: () =>
      api
        .searchMergePrimary({ filter: primarySearchFilter(q, dupIds), perPage: MERGE_SEARCH_SIZE })
        .then((r) => primaryResults(r.data, dupIds)),
  });
  const preview = useQuery({
    queryKey: ['patients', 'merge-preview', primary?.id, dupIds],
    enabled: step !== 'pick' && Boolean(primary),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    queryFn: () => api.previewPatientMerge({ targetId: primary!.id, sourceIds: dupIds }).then((r) => r.data),
  });
  const { merge, problem: progressProblem } = useMergeProgress(started, (m) => {
    if (m.status === 'DONE') {
      toast('success', t('patients.merging.merged'));
      onMerged();
      // the bar stays at 100 % a moment, then the dialog closes
      setTimeout(onClose, DONE_SHOWN_MS);
    }
  });

  const doMerge = async () => {
    if (!primary) return;
    setBusy(true);
    setProblem(null);
    try {
      const version = preview.data?.target.version ?? primary.version;
      const { data } = await api.mergePatients({ targetId: primary.id, version, sourceIds: dupIds });
      setStarted(data);
      setStep('progress');
    } catch (e) {
      const msg = errorMessage(e, t('patients.merging.failed'));
      setProblem(msg);
      toast('error', msg);
    } finally {
      setBusy(false);
    }
  };

  // the duplicates, in the preview's words when it has them (fresh from the server)
  const shownDuplicates = preview.data?.sources?.length ? preview.data.sources : duplicates;
  const rows = preview.data
    ? conflictRows(
        preview.data.conflicts,
        shownDuplicates.map((d) => d.id),
        label,
      )
    : [];

  const duplicatesBlock = (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 0.75 }}>
        {t('patients.merging.duplicates', { n: duplicates.length })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }} data-testid="merge-duplicates">
        {duplicates.map((d) => (
          <Chip key={d.id} size="small" variant="outlined" label={patientLabel(d)} />
        ))}
      </Box>
    </Box>
  );

  const pickStep = (
    <>
      {duplicatesBlock}
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('patients.merging.pickPrimary')}
      </Typography>
      <TextField
        size="small"
        fullWidth
        autoFocus
        label={t('patients.merging.search')}
        helperText={t('patients.merging.searchHint')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{
          htmlInput: { 'data-testid': 'merge-primary-search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
            endAdornment: search.isFetching ? (
              <InputAdornment position="end">
                <CircularProgress size={16} />
              </InputAdornment>
            ) : null,
          },
        }}
      />
      <Paper variant="outlined" sx={{ mt: 1.5, maxHeight: 320, overflow: 'auto', borderRadius: 1.5 }}>
        {search.error ? (
          <Alert severity="error" sx={{ m: 1 }}>
            {errorMessage(search.error, t('patients.merging.searchFailed'))}
          </Alert>
        ) : !search.data ? (
          <Box sx={{ p: 1.5 }}>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Box>
        ) : search.data.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('patients.merging.noResults')}
          </Typography>
        ) : (
          <List dense disablePadding data-testid="merge-primary-results">
            {search.data.map((p) => {
              const why = primaryProblem(p, dupIds);
              const chosen = primary?.id === p.id;
              return (
                <ListItemButton
                  key={p.id}
                  selected={chosen}
                  disabled={why !== null}
                  onClick={() => setPrimary(p)}
                  data-testid={`merge-primary-${p.id}`}
                  divider
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Radio size="small" checked={chosen} tabIndex={-1} disableRipple />
                  </ListItemIcon>
                  <ListItemText
                    primary={[p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ') || p.name}
                    secondary={
                      why === 'canEdit'
                        ? t('patients.merging.notEditable')
                        : why === 'dul'
                          ? t('patients.merging.dulNumber')
                          : [
                              p.userId,
                              displayDay(p.dateOfBirth),
                              p.birthSex ? label(p.birthSex) : '',
                              p.mrn ? `${t('patients.field.mrn')} ${p.mrn}` : '',
                            ]
                              .filter(Boolean)
                              .join(' · ')
                    }
                    slotProps={{ primary: { sx: { fontWeight: chosen ? 600 : 500 } } }}
                  />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </Paper>
      {primary ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="merge-primary-chosen">
          {t('patients.merging.primary')}: <strong>{patientLabel(primary)}</strong>
        </Typography>
      ) : null}
    </>
  );

  const cell = { fontWeight: 600, whiteSpace: 'nowrap' } as const;
  /** the field's name in the user's language, else the server's label */
  const fieldLabel = (field: string, serverLabel: string) => {
    const key = `patients.merging.fieldName.${field}`;
    const text = t(key);
    return text === key ? serverLabel : text;
  };
  const previewStep = (
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
                {patientLabel(preview.data.target)}
              </Typography>
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
                {t('patients.merging.duplicates', { n: shownDuplicates.length })}
              </Typography>
              {shownDuplicates.map((d) => (
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
                <Box>
                  <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid="merge-moves-requisitions">
                    {preview.data.moves.requisitions}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('patients.merging.requisitions')}
                  </Typography>
                </Box>
                <Box>
                  <Typography variant="h5" sx={{ fontWeight: 700 }} data-testid="merge-moves-billing">
                    {preview.data.moves.billingEntries}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('patients.merging.billingEntries')}
                  </Typography>
                </Box>
              </Box>
            </Paper>
          </Box>
          <Typography variant="subtitle2" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('patients.merging.conflicts')}
          </Typography>
          {rows.length ? (
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
                      {shownDuplicates.map((d) => (
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
                        <TableCell sx={{ fontWeight: 600, color: 'success.dark' }}>
                          {r.primary || '—'}
                        </TableCell>
                        {r.duplicates.map((v, i) => (
                          <TableCell
                            key={i}
                            sx={
                              r.differs[i]
                                ? { color: 'text.secondary', textDecoration: 'line-through' }
                                : undefined
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
      {problem ? (
        <Alert severity="error" sx={{ mt: 2 }} data-testid="merge-problem">
          {problem}
        </Alert>
      ) : null}
    </>
  );

  const progressStep = merge ? (
    <Box sx={{ py: 1 }}>
      <Typography variant="body1" sx={{ fontWeight: 600, mb: 0.5 }}>
        {primary ? `${t('patients.merging.primary')}: ${patientLabel(primary)}` : null}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {merge.status === 'DONE' ? t('patients.merging.merged') : t('patients.merging.running')}
      </Typography>
      <MergeProgressBar merge={merge} problem={progressProblem} />
      {merge.status === 'DONE' ? null : (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
          {t('patients.merging.background')}
        </Typography>
      )}
    </Box>
  ) : null;

  return (
    <Dialog
      open
      onClose={step === 'progress' || busy ? undefined : onClose}
      maxWidth="md"
      fullWidth
      data-testid="merge-dialog"
    >
      <DialogTitle sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <CallMergeIcon color="primary" />
        {t('patients.merging.title')}
      </DialogTitle>
      <DialogContent dividers>
        {step === 'pick' ? pickStep : step === 'preview' ? previewStep : progressStep}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {step === 'progress' ? (
          <Button
            onClick={() => {
              if (merge?.status !== 'DONE') onMerged();
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
              <Button
                onClick={() => {
                  setProblem(null);
                  setStep('pick');
                }}
                disabled={busy}
                data-testid="merge-back"
              >
                {t('patients.merging.back')}
              </Button>
            ) : null}
            {step === 'pick' ? (
              <Button
                variant="contained"
                disabled={!primary}
                onClick={() => setStep('preview')}
                data-testid="merge-preview-next"
              >
                {t('patients.merging.preview')}
              </Button>
            ) : (
              <Button
                variant="contained"
                disabled={busy || !preview.data}
                startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <CallMergeIcon />}
                onClick={() => void doMerge()}
                data-testid="merge-submit"
              >
                {t('patients.merging.merge')}
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
