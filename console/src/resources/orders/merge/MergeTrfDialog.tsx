import { useMemo, useState } from 'react';
import { Alert, Box, Checkbox, FormControlLabel, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { FormDialog, truncate, TRUNCATE, useMessagesT, useToast } from '../../../components';
import { useEnumLabel } from '../list/useOrdersT';
import { useSampleMethods } from '../summary/samples/useSampleMethods';
import { useMergeMethods } from './useMergeMethods';
import { mergeEn } from './i18n';

type Kind = 'tumors' | 'normals' | 'plasmas';

/**
 * Merge TRF (spec 2 sections 2.9 and 5): a primary and a duplicate form of the same patient, and the duplicate's
 * samples that can be copied. With samples selected, they are copied to the primary first (POST
 * copySampleSource: "Samples could not be copied" on refusal, and then nothing is merged); then the forms are
 * merged (POST /testOrderForms/merge). Without samples the forms are merged directly.
 */
export function MergeTrfDialog(props: {
  open: boolean;
  current: { id: string; testRequisitionId: string | null; patientId: string; accountId: string | null };
  onClose: () => void;
  onMerged: (primaryId: string) => void;
}) {
  const { open, current, onClose, onMerged } = props;
  const t = useMessagesT(mergeEn);
  const label = useEnumLabel();
  const toast = useToast();
  const mergeApi = useMergeMethods();
  const samplesApi = useSampleMethods();
  const [primaryId, setPrimaryId] = useState(current.id);
  const [duplicateId, setDuplicateId] = useState('');
  const [picked, setPicked] = useState<Record<string, Kind>>({});
  const [busy, setBusy] = useState(false);

  const others = useQuery({
    queryKey: ['merge-candidates', current.id],
    queryFn: () =>
      samplesApi
        .getCopySources({ patientId: current.patientId, accountId: current.accountId, excludeId: current.id })
        .then((r) => r.data),
  });
  const forms = useMemo(
    () => [{ id: current.id, testRequisitionId: current.testRequisitionId }, ...(others.data ?? [])],
    [current, others.data],
  );
  const samples = useQuery({
    queryKey: ['merge-samples', duplicateId],
    enabled: Boolean(duplicateId),
    queryFn: () => samplesApi.getSamples({ requisitionId: duplicateId }).then((r) => r.data),
  });
  const trf = (id: string) => forms.find((f) => f.id === id)?.testRequisitionId ?? id;
  const rows = (['tumors', 'normals', 'plasmas'] as const).flatMap((k) =>
    (samples.data?.[k] ?? []).map((s) => ({ kind: k, s })),
  );

  const merge = async () => {
    if (!duplicateId || duplicateId === primaryId) return;
    setBusy(true);
    const chosen = Object.entries(picked);
    if (chosen.length) {
      const of = (k: Kind) => chosen.filter(([, kind]) => kind === k).map(([id]) => ({ id }));
      try {
        await samplesApi.copySamples({
          sourceMergeTrfId: duplicateId,
          toTestOrderForm: {
            id: primaryId,
            tumors: of('tumors'),
            normals: of('normals'),
            plasmas: of('plasmas'),
          },
        });
      } catch (e) {
        toast('error', (e as Error)?.message || t('merge.copyFailed'));
        setBusy(false);
        return;
      }
    }
    try {
      await mergeApi.mergeTestOrderForms({ sourceTrfId: duplicateId, targetTrfId: primaryId });
      toast('success', t('merge.merged'));
      onMerged(primaryId);
    } catch (e) {
      toast('error', (e as Error)?.message || t('merge.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      title={t('merge.title')}
      onClose={onClose}
      busy={busy}
      cancelLabel={t('merge.cancel')}
      submitLabel={t('merge.merge')}
      onSubmit={merge}
      submitDisabled={!duplicateId || duplicateId === primaryId}
      submitTestId="merge-submit"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('merge.explain')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 2, mb: 2 }}>
        <TextField
          select
          fullWidth
          size="small"
          label={t('merge.primary')}
          value={primaryId}
          onChange={(e) => {
            setPrimaryId(e.target.value);
            if (e.target.value === duplicateId) setDuplicateId('');
          }}
          slotProps={{ htmlInput: { 'data-testid': 'merge-primary' } }}
        >
          {forms.map((f) => (
            <MenuItem key={f.id} value={f.id}>
              {f.testRequisitionId ?? f.id}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          fullWidth
          size="small"
          label={t('merge.duplicate')}
          value={duplicateId}
          onChange={(e) => {
            setDuplicateId(e.target.value);
            setPicked({});
          }}
          helperText={forms.length < 2 && !others.isPending ? t('merge.noOthers') : ' '}
          slotProps={{ htmlInput: { 'data-testid': 'merge-duplicate' } }}
        >
          {forms
            .filter((f) => f.id !== primaryId)
            .map((f) => (
              <MenuItem key={f.id} value={f.id} data-value={f.id}>
                {f.testRequisitionId ?? f.id}
              </MenuItem>
            ))}
        </TextField>
      </Box>
      {duplicateId ? (
        <>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('merge.samples')} ({trf(duplicateId)} → {trf(primaryId)})
          </Typography>
          {rows.length ? (
            rows.map(({ kind, s }) => (
              <FormControlLabel
                key={s.id}
                sx={{ display: 'flex' }}
                control={
                  <Checkbox
                    size="small"
                    checked={Boolean(picked[s.id])}
                    onChange={(e) =>
                      setPicked((p) => {
                        const next = { ...p };
                        if (e.target.checked) next[s.id] = kind;
                        else delete next[s.id];
                        return next;
                      })
                    }
                  />
                }
                label={`${label(s.type)} · ${truncate(s.name ?? s.specimenId ?? s.limsId ?? '', TRUNCATE.sampleName).text} · ${label(s.status)}`}
              />
            ))
          ) : (
            <Alert severity="info" variant="outlined">
              {samples.isPending ? '…' : t('merge.noSamples')}
            </Alert>
          )}
        </>
      ) : null}
    </FormDialog>
  );
}
