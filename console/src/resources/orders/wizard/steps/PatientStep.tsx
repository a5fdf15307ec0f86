import { Alert, Checkbox, FormControlLabel, FormHelperText, Grid, Radio, RadioGroup } from '@mui/material';
import {
  BIRTH_SEXES,
  ORDER_TYPES,
  orderTypeEnabled,
  requiresTumorAndNormal,
  type PatientForm,
} from '@onco/domain';
import { useWizard } from '../context';
import { DateF, AddressFields, Section, SelectF, TextF } from '../fields';
import { Picker } from '../Picker';
import { useWizardT } from '../useWizardT';

const PATIENT_KEYS: (keyof PatientForm)[] = [
  'id',
  'userId',
  'firstName',
  'middleName',
  'lastName',
  'name',
  'race',
  'ethnicity',
  'trialName',
  'studyPatientId',
  'address',
  'phone',
  'fax',
  'email',
  'mrn',
  'dateOfBirth',
  'birthSex',
];

export function pickPatient(row: Record<string, unknown>): PatientForm {
  const out: Record<string, unknown> = {};
  for (const k of PATIENT_KEYS) if (row[k] !== undefined) out[k] = row[k];
  return out as PatientForm;
}

export function TestSelection() {
  const { form, set, errorFor, rules } = useWizard();
  const t = useWizardT();
  const info = form.orderInformation ?? {};
  const error = errorFor('orderInformation');
  const required = !rules.permissions.includes('IS_TEST_SELECTION_OPTIONAL');
  return (
    <Section title="wizard.sections.testSelection">
      <Grid size={12}>
        <FormControlLabel
          control={
            <Checkbox
              name="orderInformation.nextDx"
              checked={!!info.nextDx}
              onChange={(e) => set('orderInformation.nextDx', e.target.checked)}
            />
          }
          label={t('wizard.tests.NEXT_DX') + (required ? ' *' : '')}
        />
        <FormControlLabel
          control={
            <Checkbox
              name="orderInformation.nextPersonalDx"
              checked={!!info.nextPersonalDx}
              onChange={(e) => set('orderInformation.nextPersonalDx', e.target.checked)}
            />
          }
          label={t('wizard.tests.NEXT_PERSONAL_DX')}
        />
        {error && <FormHelperText error>{error}</FormHelperText>}
      </Grid>
      {info.nextPersonalDx && (
        <Grid size={12}>
          <RadioGroup
            row
            name="orderInformation.orderType"
            aria-label={t('wizard.tests.orderType')}
            value={orderTypeEnabled(info) ? (info.orderType ?? 'INITIAL_ORDER') : 'INITIAL_ORDER'}
            onChange={(e) => set('orderInformation.orderType', e.target.value)}
          >
            {ORDER_TYPES.map((o) => (
              <FormControlLabel
                key={o}
                value={o}
                disabled={!orderTypeEnabled(info)}
                control={<Radio size="small" />}
                label={t(`wizard.tests.${o}`)}
              />
            ))}
          </RadioGroup>
        </Grid>
      )}
      {requiresTumorAndNormal(info) && (
        <Grid size={12}>
          <Alert severity="info">{t('wizard.rules.tumorAndNormalRequired')}</Alert>
        </Grid>
      )}
    </Section>
  );
}

export function PatientStep() {
  const { can, patch, rules } = useWizard();
  const required = !rules.permissions.includes('IS_PATIENT_INFO_OPTIONAL');
  return (
    <>
      <TestSelection />
      <Section title="wizard.sections.patient">
        {can('CAN_SEARCH_PATIENT') && (
          <Picker<Record<string, unknown> & { id?: string }>
            id="patient-search"
            label="wizard.fields.searchPatient"
            resource="patients"
            debounceMs={400}
            optionLabel={(r) =>
              [r.name ?? `${r.firstName ?? ''} ${r.lastName ?? ''}`, r.userId, r.dateOfBirth]
                .filter(Boolean)
                .join(' · ')
            }
            onPick={(row) => patch({ patient: pickPatient(row) })}
            cols={12}
          />
        )}
        <TextF path="patient.firstName" label="wizard.fields.firstName" required={required} />
        <TextF path="patient.middleName" label="wizard.fields.middleName" />
        <TextF path="patient.lastName" label="wizard.fields.lastName" required={required} />
        <DateF
          path="patient.dateOfBirth"
          label="wizard.fields.dateOfBirth"
          required={required}
          max={rules.today}
        />
        <SelectF
          path="patient.birthSex"
          label="wizard.fields.birthSex"
          options={BIRTH_SEXES}
          required={required}
        />
        <TextF path="patient.mrn" label="wizard.fields.mrn" />
        <AddressFields prefix="patient.address" required={required} />
        <TextF path="patient.phone" label="wizard.fields.phone" cols={3} />
        <TextF path="patient.fax" label="wizard.fields.fax" cols={3} />
        <TextF path="patient.email" label="wizard.fields.email" cols={6} />
        <TextF path="patient.race" label="wizard.fields.race" cols={3} />
        <TextF path="patient.ethnicity" label="wizard.fields.ethnicity" cols={3} />
        <TextF path="patient.trialName" label="wizard.fields.trialName" cols={3} />
        <TextF path="patient.studyPatientId" label="wizard.fields.studyPatientId" cols={3} />
      </Section>
    </>
  );
}
