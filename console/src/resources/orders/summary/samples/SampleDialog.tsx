import { useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, Checkbox, FormControlLabel, MenuItem, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  proceedAllowed,
  sampleDateWindow,
  sampleSpecimenTypeOptions,
  sampleStatusOptions,
  validateSampleForm,
  workOrderNumberFor,
  type SampleForm,
  type SampleStatus,
  type SpecimenKind,
} from '@onco/domain';
import { FormDialog, useSave } from '../../../../components';
import { useEnumLabel } from '../../list/useOrdersT';
import { errorText } from '../api';
import type { SampleRow, SamplesRequisition } from './api';
import {
  LIST_OF,
  newSampleForm,
  preferenceFilter,
  ruleRequisition,
  sampleBody,
  sampleFormOf,
  sampleRuleText,
} from './logic';
import { useSampleMethods } from './useSampleMethods';
import { useSamplesT } from './useSamplesT';

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * Add / Edit a sample: "Add {type}" or "Edit {type}: {limsId}". The options and the error texts are the
 * domain's (status options, specimen types, the sample form rules); Save is disabled until the form is valid
 * and a domain preference is found. A refusal shows the server's reason, or a default text.
 */
export function SampleDialog(props: {
  open: boolean;
  data: SamplesRequisition;
  type: SpecimenKind;
  sample?: SampleRow | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { open, data, type, sample, onClose, onDone } = props;
  const t = useSamplesT();
  const label = useEnumLabel();
  const api = useSampleMethods();
  const mode = sample ? 'edit' : 'add';
  const [form, setForm] = useState<SampleForm>(() =>
    sample ? sampleFormOf(sample) : newSampleForm(type, data),
  );
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [tried, setTried] = useState(false);
  const { busy, save } = useSave();
  const requisition = ruleRequisition(data);
  const today = todayUtc();
  const canProceed = proceedAllowed(requisition, type, data.ruleConfig);
  const errors = validateSampleForm(form, {
    mode,
    today,
    requisition,
    config: data.ruleConfig,
    current: sample ? { type: sample.type, status: sample.status, specimenId: sample.specimenId } : null,
  });
  const valid = Object.keys(errors).length === 0;
  const window = sampleDateWindow(type, today);

  const patientId = data.requisition.patient?.id ?? null;
  const lims = useQuery({
    queryKey: ['samples', 'lims', patientId],
    queryFn: () => api.getLimsInfo({ patient: { id: patientId! } }).then((x) => x.data),
    enabled: Boolean(patientId),
  });
  const limsOptions = useMemo(() => {
    const ids = new Set<string>();
    for (const p of lims.data ?? []) ids.add(p.limsProjectId);
    for (const x of data.requisition.testOrders) if (x.limsProjectId) ids.add(x.limsProjectId);
    return [...ids];
  }, [lims.data, data.requisition.testOrders]);

  const specimenType = form.specimenType ?? '';
  const pref = useQuery({
    queryKey: ['samples', 'preference', data.id, type, specimenType],
    queryFn: () =>
      api.getDomainPreference({ filter: preferenceFilter(data, type, specimenType) }).then((x) => x.data),
    enabled: Boolean(specimenType),
  });

  const set = <K extends keyof SampleForm>(k: K, v: SampleForm[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setTouched((x) => ({ ...x, [k]: true }));
  };
  const say = (m: string | undefined) => (m ? sampleRuleText(m, t, label) : undefined);
  const shown = (k: string) => say(tried || touched[k] ? errors[k] : undefined);
  const field = (k: keyof SampleForm & string, htmlInput: Record<string, unknown> = {}) => ({
    fullWidth: true,
    size: 'small' as const,
    label: t(`samples.dialog.${k}`),
    value: (form[k] as string | null | undefined) ?? '',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(k, e.target.value as never),
    error: Boolean(shown(k)),
    helperText: shown(k) ?? ' ',
    slotProps: { htmlInput: { 'data-testid': `sample-${k}`, ...htmlInput } },
  });

  const submit = () => {
    setTried(true);
    if (!valid || !pref.data) return;
    const body = { id: data.id, [LIST_OF[type]]: [sampleBody(form, sample)] };
    return save(() => (sample ? api.updateSamples(body) : api.createSamples(body)), {
      success: t(sample ? 'samples.toast.updated' : 'samples.toast.added'),
      failure: (e) => errorText(e, t('samples.toast.saveFailed')),
      onDone,
    });
  };

  const typeLabel = t(`samples.type.${type}`);
  const title = sample
    ? t('samples.dialog.editTitle', { type: typeLabel, limsId: sample.limsId ?? '' })
    : t('samples.dialog.addTitle', { type: typeLabel });
  const statusOptions = sampleStatusOptions(mode, sample?.status ?? null, canProceed);
  return (
    <FormDialog
      open={open}
      title={title}
      onClose={onClose}
      testId="sample-dialog"
      busy={busy}
      cancelLabel={t('samples.dialog.cancel')}
      submitLabel={t('samples.dialog.save')}
      onSubmit={submit}
      submitDisabled={!valid || !pref.data}
      submitTestId="sample-save"
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, mt: 1 }}>
        <TextField
          {...field('status')}
          select
          onChange={(e) => set('status', e.target.value as SampleStatus)}
          helperText={shown('status') ?? say(errors.sampleGroupId) ?? ' '}
        >
          {statusOptions.map((o) => (
            <MenuItem key={o.status} value={o.status} disabled={o.disabled}>
              {label(o.status)}
            </MenuItem>
          ))}
        </TextField>
        <TextField {...field('specimenId')} disabled={mode === 'edit'} required={type === 'TUMOR'} />
        <TextField {...field('specimenType')} select required>
          {sampleSpecimenTypeOptions(type, requisition).map((s) => (
            <MenuItem key={s} value={s}>
              {label(s)}
            </MenuItem>
          ))}
        </TextField>
        {type === 'TUMOR' ? <TextField {...field('sampleSite')} required /> : <Box />}
        <Autocomplete
          freeSolo
          options={limsOptions}
          value={form.limsProjectId ?? ''}
          onInputChange={(_, v) => set('limsProjectId', v)}
          renderInput={(params) => (
            <TextField
              {...params}
              inputProps={{ ...params.inputProps, 'data-testid': 'sample-limsProjectId' }}
              size="small"
              required
              label={t('samples.dialog.limsProject')}
              error={Boolean(shown('limsProjectId'))}
              helperText={shown('limsProjectId') ?? ' '}
            />
          )}
        />
        <TextField {...field('name')} />
        <TextField {...field('accessionId')} required={form.status === 'PROCEED'} />
        <TextField {...field('sampleGroupId')} required={form.status === 'PROCEED'} />
        <TextField
          {...field('collectedOn', { min: window.min, max: window.max })}
          type="date"
          required
          InputLabelProps={{ shrink: true }}
        />
        <TextField
          {...field('receivedOn', { min: window.min, max: window.max })}
          type="date"
          required
          InputLabelProps={{ shrink: true }}
        />
        <TextField {...field('trackingNumber')} />
        <FormControlLabel
          control={
            <Checkbox
              checked={Boolean(form.doNotExhaust)}
              onChange={(e) => set('doNotExhaust', e.target.checked)}
            />
          }
          label={t('samples.dialog.doNotExhaust')}
        />
      </Box>
      {specimenType ? (
        pref.isPending ? (
          <Alert severity="info">{t('samples.dialog.lookingUp')}</Alert>
        ) : pref.data ? (
          <Alert severity="success" data-testid="sample-preference">
            {t('samples.dialog.preference', {
              wo: workOrderNumberFor(form.status, pref.data.workOrderNumber) ?? '',
              product: pref.data.product ?? '',
            })}
          </Alert>
        ) : (
          <Alert severity="warning">{t('samples.dialog.noPreference')}</Alert>
        )
      ) : null}
    </FormDialog>
  );
}
