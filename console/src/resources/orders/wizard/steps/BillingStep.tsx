import { Alert, Button, Grid, MenuItem, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import {
  BILLING_FIELD_LABELS,
  BILLING_INSURANCE_FIELDS,
  BILLING_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  billingFields,
  requisitionWarnings,
  type BillingForm,
} from '@onco/domain';
import { useWizardApi } from '../api';
import { useWizard } from '../context';
import { DateF, Section, SelectF, TextF } from '../fields';
import { Picker } from '../Picker';
import { useWizardT } from '../useWizardT';

type Row = Record<string, unknown> & { id?: string };

const FILL_KEYS = ['billingType', ...BILLING_INSURANCE_FIELDS, 'facilityTypeName', 'otherTypeName'] as const;

/** A saved patient insurance entry as billing fields (patientInsuranceId = its id). */
export function billingFromInsurance(row: Row): Partial<BillingForm> {
  const out: Record<string, unknown> = {};
  for (const k of FILL_KEYS) if (row[k] !== undefined) out[k] = row[k];
  out.patientInsuranceId = (row.patientInsuranceId as string) ?? row.id ?? null;
  return out as Partial<BillingForm>;
}

function BillingBlock({ index, primary }: { index: number; primary: boolean }) {
  const { form, patch, set, rules } = useWizard();
  const api = useWizardApi();
  const t = useWizardT();
  const b = form.billings?.[index] ?? {};
  const fields = billingFields(b.billingType, b.patientStatus);
  const required = primary && !rules.permissions.includes('IS_BILLING_OPTIONAL');
  const req = (f: string) => required && fields.required.includes(f);
  const vis = (f: string) => fields.visible.includes(f);
  const prefix = `billings.${index}`;
  const patientId = form.patient?.id;
  const [saved, setSaved] = useState<Row[]>([]);
  useEffect(() => {
    if (!patientId) return setSaved([]);
    let live = true;
    api
      .list<Row>(`patients/${encodeURIComponent(patientId)}/billings`, {})
      .then((p) => live && setSaved(p.content ?? []))
      .catch(() => live && setSaved([]));
    return () => {
      live = false;
    };
  }, [patientId, api]);

  return (
    <Section
      title={primary ? 'wizard.sections.primaryBilling' : 'wizard.sections.secondaryBilling'}
      right={
        !primary && (
          <Button
            size="small"
            onClick={() =>
              set(
                'billings',
                (form.billings ?? []).filter((_, i) => i !== index),
              )
            }
          >
            {t('wizard.buttons.remove')}
          </Button>
        )
      }
    >
      {saved.length > 0 && (
        <Grid size={{ xs: 12, md: 6 }}>
          <TextField
            select
            fullWidth
            size="small"
            label={t('wizard.billing.insuranceFromPatient')}
            value={b.patientInsuranceId ?? ''}
            onChange={(e) => {
              const row = saved.find((r) => (r.patientInsuranceId ?? r.id) === e.target.value);
              if (row) patch({ [prefix]: { ...b, ...billingFromInsurance(row) } });
            }}
          >
            {saved.map((r) => (
              <MenuItem key={String(r.id)} value={String(r.patientInsuranceId ?? r.id)}>
                {[r.insuranceProvider ?? r.billingType, r.policyNumber].filter(Boolean).join(' · ')}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
      )}
      <SelectF
        path={`${prefix}.billingType`}
        label={BILLING_FIELD_LABELS.billingType}
        options={BILLING_TYPES}
        required={required}
      />
      {vis('insuranceProvider') && (
        <Picker<Row>
          id={`${prefix}-payor-search`}
          label="wizard.fields.searchPayor"
          resource="payors"
          size={15}
          debounceMs={400}
          optionLabel={(r) => [r.name, r.payorId].filter(Boolean).join(' · ')}
          onPick={(r) =>
            patch({
              [`${prefix}.insuranceProvider`]: r.name ?? null,
              [`${prefix}.payorId`]: r.payorId ?? null,
            })
          }
          cols={8}
        />
      )}
      {vis('insuranceProvider') && (
        <TextF
          path={`${prefix}.insuranceProvider`}
          label={BILLING_FIELD_LABELS.insuranceProvider}
          required={req('insuranceProvider')}
        />
      )}
      {vis('payorId') && (
        <TextF path={`${prefix}.payorId`} label={BILLING_FIELD_LABELS.payorId} required={req('payorId')} />
      )}
      {vis('insuredName') && (
        <TextF
          path={`${prefix}.insuredName`}
          label={BILLING_FIELD_LABELS.insuredName}
          required={req('insuredName')}
        />
      )}
      {vis('insuredDob') && (
        <DateF
          path={`${prefix}.insuredDob`}
          label={BILLING_FIELD_LABELS.insuredDob}
          required={req('insuredDob')}
          max={rules.today}
        />
      )}
      {vis('policyNumber') && (
        <TextF
          path={`${prefix}.policyNumber`}
          label={BILLING_FIELD_LABELS.policyNumber}
          required={req('policyNumber')}
        />
      )}
      {vis('groupNumber') && (
        <TextF path={`${prefix}.groupNumber`} label={BILLING_FIELD_LABELS.groupNumber} />
      )}
      {vis('priorAuthorizationNumber') && (
        <TextF
          path={`${prefix}.priorAuthorizationNumber`}
          label={BILLING_FIELD_LABELS.priorAuthorizationNumber}
        />
      )}
      {vis('relationshipToPatient') && (
        <SelectF
          path={`${prefix}.relationshipToPatient`}
          label={BILLING_FIELD_LABELS.relationshipToPatient}
          options={RELATIONSHIPS}
          required={req('relationshipToPatient')}
        />
      )}
      {vis('patientStatus') && (
        <SelectF
          path={`${prefix}.patientStatus`}
          label={BILLING_FIELD_LABELS.patientStatus}
          options={PATIENT_STATUSES}
          onChangeExtra={(v) => v !== 'INPATIENT_DISCHARGED' && set(`${prefix}.dischargeDate`, null)}
        />
      )}
      {vis('dischargeDate') && (
        <DateF
          path={`${prefix}.dischargeDate`}
          label={BILLING_FIELD_LABELS.dischargeDate}
          required={req('dischargeDate')}
          max={rules.today}
        />
      )}
      {vis('facilityTypeName') && (
        <TextF
          path={`${prefix}.facilityTypeName`}
          label={BILLING_FIELD_LABELS.facilityTypeName}
          required={req('facilityTypeName')}
        />
      )}
      {vis('otherTypeName') && (
        <TextF path={`${prefix}.otherTypeName`} label={BILLING_FIELD_LABELS.otherTypeName} />
      )}
    </Section>
  );
}

export function BillingStep() {
  const { form, set, errorFor } = useWizard();
  const t = useWizardT();
  const billings = form.billings ?? [];
  const warnings = requisitionWarnings(form);
  const sectionError = errorFor('billings');
  const primaryIndex = Math.max(
    0,
    billings.findIndex((b) => b.preference === 'PRIMARY'),
  );
  return (
    <>
      {warnings.map((w) => (
        <Alert key={w} severity="warning" sx={{ mb: 2 }}>
          {w}
        </Alert>
      ))}
      {sectionError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {sectionError}
        </Alert>
      )}
      <BillingBlock index={primaryIndex} primary />
      {billings.map((b, i) =>
        i === primaryIndex ? null : <BillingBlock key={i} index={i} primary={false} />,
      )}
      {billings.length < 2 && (
        <Button
          variant="outlined"
          size="small"
          onClick={() =>
            set('billings', [
              ...(billings.length ? billings : [{ preference: 'PRIMARY', relationshipToPatient: 'SELF' }]),
              { preference: 'SECONDARY', relationshipToPatient: 'SELF' },
            ])
          }
        >
          + {t('wizard.sections.secondaryBilling')}
        </Button>
      )}
    </>
  );
}
