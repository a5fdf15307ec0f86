import { useState } from 'react';
import { Alert, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Identifier } from 'react-admin';
import { copySamplesError, isSubsequentOrder, SAMPLE_NAME_MAX } from '@onco/domain';
import {
  DataTable,
  formatDate,
  FormDialog,
  Truncate,
  useDebounced,
  useSave,
  type Column,
} from '../../../../components';
import { useEnumLabel } from '../../list/useOrdersT';
import { errorText } from '../api';
import type { Requisition } from '../requisition';
import type { SampleRow, SamplesRequisition } from './api';
import { allSamples, copySelection, ruleRequisition } from './logic';
import { useSampleMethods } from './useSampleMethods';
import { useSamplesT } from './useSamplesT';

/**
 * Copy Samples: "Copy Samples: {TRF id}". The user picks another submitted requisition of the same patient and
 * account, selects its samples, and they are copied into this one (copySampleSource). PROCEED samples copied to
 * a subsequent order need its parent order, else "Samples could not be copied" (the domain's rule; the lab
 * checks it too). Toasts: "Samples have been copied successfully", or the server's reason.
 */
export function CopySamplesDialog(props: {
  open: boolean;
  r: Requisition;
  target: SamplesRequisition;
  onClose: () => void;
  onDone: () => void;
}) {
  const { open, r, target, onClose, onDone } = props;
  const t = useSamplesT();
  const label = useEnumLabel();
  const api = useSampleMethods();
  const [search, setSearch] = useState('');
  const q = useDebounced(search, 400);
  const [sourceId, setSourceId] = useState('');
  const [ids, setIds] = useState<Identifier[]>([]);
  const { busy, save } = useSave();
  const patientId = r.patient?.id ?? target.requisition.patient?.id ?? null;

  const sources = useQuery({
    queryKey: ['samples', 'copySources', r.id, q],
    queryFn: () =>
      api
        .getCopySources({ patientId: patientId!, accountId: r.account?.id ?? null, q, excludeId: r.id })
        .then((x) => x.data),
    enabled: Boolean(patientId),
  });
  const source = useQuery({
    queryKey: ['samples', sourceId],
    queryFn: () => api.getSamples({ requisitionId: sourceId }).then((x) => x.data),
    enabled: Boolean(sourceId),
  });
  const samples = allSamples(source.data);
  const chosen = samples.filter((s) => ids.includes(s.id));
  const parentId = r.parentTestOrderForm?.id ?? null;
  const ruleError = chosen.length
    ? copySamplesError({
        samples: chosen,
        targetSubsequent: isSubsequentOrder(ruleRequisition(target)),
        targetParentId: parentId,
      })
    : null;

  const submit = () =>
    save(
      () =>
        api.copySamples({
          sourceMergeTrfId: sourceId,
          toTestOrderForm: {
            id: target.id,
            parentTestOrderForm: parentId ? { id: parentId } : null,
            ...copySelection(samples, ids as string[]),
          },
        }),
      {
        success: t('samples.toast.copied'),
        failure: (e) => errorText(e, t('samples.toast.copyFailed')),
        onDone,
      },
    );

  const columns: Column<SampleRow>[] = [
    { source: 'type', label: t('samples.col.type'), render: (x) => t(`samples.type.${x.type}`) },
    { source: 'limsId', label: t('samples.col.limsId') },
    {
      source: 'name',
      label: t('samples.col.name'),
      render: (x) => <Truncate text={x.name} max={SAMPLE_NAME_MAX} />,
    },
    { source: 'status', label: t('samples.col.status'), render: (x) => label(x.status) },
    { source: 'collectedOn', label: t('samples.col.collectedOn'), render: (x) => formatDate(x.collectedOn) },
  ];
  return (
    <FormDialog
      open={open}
      title={t('samples.dialog.copyTitle', { trf: r.testRequisitionId ?? target.testRequisitionId ?? '' })}
      onClose={onClose}
      maxWidth="md"
      testId="copy-samples-dialog"
      busy={busy}
      cancelLabel={t('samples.dialog.cancel')}
      submitLabel={t('samples.dialog.copy')}
      onSubmit={submit}
      submitDisabled={!sourceId || chosen.length === 0 || Boolean(ruleError)}
      submitTestId="copy-samples-submit"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('samples.dialog.pickSource')}
      </Typography>
      <TextField
        size="small"
        fullWidth
        sx={{ mb: 1.5 }}
        label={t('samples.dialog.sourceSearch')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <TextField
        select
        size="small"
        fullWidth
        sx={{ mb: 2 }}
        label={t('samples.dialog.source')}
        value={sourceId}
        onChange={(e) => {
          setSourceId(e.target.value);
          setIds([]);
        }}
        helperText={sources.data && !sources.data.length ? t('samples.dialog.noSources') : ' '}
        inputProps={{ 'data-testid': 'copy-source' }}
      >
        {(sources.data ?? []).map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {s.testRequisitionId ?? s.id}
            {s.createdOn ? ` · ${formatDate(s.createdOn)}` : ''}
          </MenuItem>
        ))}
      </TextField>
      {sourceId ? (
        <DataTable<SampleRow>
          columns={columns}
          rows={samples}
          loading={source.isPending}
          fetching={source.isFetching}
          emptyText={t('samples.dialog.noSourceSamples')}
          selection="multi"
          selectedIds={ids}
          onSelect={setIds}
        />
      ) : null}
      {ruleError ? (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {ruleError}
        </Alert>
      ) : null}
    </FormDialog>
  );
}
