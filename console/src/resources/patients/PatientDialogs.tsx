import { useState } from 'react';
import { Alert, Box, MenuItem, TextField } from '@mui/material';
import { BIRTH_SEXES, patientNumberProblem } from '@onco/domain';
import { useDataProvider } from 'react-admin';
import { FormDialog, useSave } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { PatientRow } from './api';
import { errorMessage, fieldErrorsOf, usePatientMethods, usePatientsT } from './usePatients';

type EditValues = Record<string, string>;
const FIELDS: Array<{ key: string; label: string; required?: boolean; type?: string }> = [
  { key: 'firstName', label: 'firstName', required: true },
  { key: 'middleName', label: 'middleName' },
  { key: 'lastName', label: 'lastName', required: true },
  { key: 'dateOfBirth', label: 'dob', required: true, type: 'date' },
  { key: 'birthSex', label: 'birthSex', required: true },
  { key: 'mrn', label: 'mrn' },
  { key: 'race', label: 'race' },
  { key: 'ethnicity', label: 'ethnicity' },
  { key: 'trialName', label: 'trialName' },
  { key: 'studyPatientId', label: 'studyPatientId' },
  { key: 'email', label: 'email', type: 'email' },
  { key: 'phone', label: 'phone' },
  { key: 'address.street', label: 'street', required: true },
  { key: 'address.city', label: 'city', required: true },
  { key: 'address.state', label: 'state', required: true },
  { key: 'address.postalCode', label: 'zip', required: true },
];

function initial(p: PatientRow): EditValues {
  const a = p.address ?? {};
  return {
    firstName: p.firstName ?? '',
    middleName: p.middleName ?? '',
    lastName: p.lastName ?? '',
    dateOfBirth: p.dateOfBirth ?? '',
    birthSex: p.birthSex ?? '',
    mrn: p.mrn ?? '',
    race: p.race ?? '',
    ethnicity: p.ethnicity ?? '',
    trialName: p.trialName ?? '',
    studyPatientId: p.studyPatientId ?? '',
    email: p.email ?? '',
    phone: p.phone ?? '',
    'address.street': a.street ?? '',
    'address.city': a.city ?? '',
    'address.state': a.state ?? '',
    'address.postalCode': a.postalCode ?? '',
  };
}

/**
 * Edit Patient (spec 2 section 5 "Patient edit form"): the server checks the whole record (required fields, phone 10
 * digits, city and zip patterns, date of birth not in the future) and answers each field's message, shown under
 * it; a stale version is a 409.
 */
export function EditPatientDialog(props: { patient: PatientRow; onClose: () => void; onSaved: () => void }) {
  const { patient, onClose, onSaved } = props;
  const t = usePatientsT();
  const label = useEnumLabel();
  const dp = useDataProvider();
  const [v, setV] = useState<EditValues>(() => initial(patient));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { busy, save } = useSave();
  const missing = FIELDS.filter((f) => f.required && !v[f.key]?.trim()).map((f) => f.key);

  const submit = () => {
    const body: Record<string, unknown> = { version: patient.version ?? undefined, address: {} };
    for (const f of FIELDS) {
      const val = v[f.key].trim() === '' ? null : v[f.key].trim();
      if (f.key.startsWith('address.')) (body.address as Record<string, unknown>)[f.key.slice(8)] = val;
      else body[f.key] = val;
    }
    return save(() => dp.update('patients', { id: patient.id, data: body, previousData: patient }), {
      success: t('patients.updated'),
      onDone: onSaved,
      onError: (e) => setErrors(fieldErrorsOf(e)),
      failure: (e) => errorMessage(e, t('patients.updateFailed')),
    });
  };

  return (
    <FormDialog
      title={t('patients.editTitle', { name: patient.name })}
      onClose={onClose}
      maxWidth="md"
      testId="patient-edit-dialog"
      busy={busy}
      cancelLabel={t('patients.cancel')}
      submitLabel={t('patients.save')}
      onSubmit={submit}
      submitDisabled={missing.length > 0}
      submitTestId="patient-edit-save"
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 1fr' }, gap: 2, pt: 1 }}>
        {FIELDS.map((f) => (
          <TextField
            key={f.key}
            size="small"
            label={t(`patients.field.${f.label}`)}
            required={f.required}
            type={f.type ?? 'text'}
            select={f.key === 'birthSex'}
            value={v[f.key]}
            onChange={(e) => setV((x) => ({ ...x, [f.key]: e.target.value }))}
            error={Boolean(errors[f.key])}
            helperText={errors[f.key] ?? ' '}
            slotProps={{
              inputLabel: f.type === 'date' ? { shrink: true } : undefined,
              htmlInput: { 'data-testid': `patient-edit-${f.key}` },
            }}
          >
            {f.key === 'birthSex'
              ? BIRTH_SEXES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {label(s)}
                  </MenuItem>
                ))
              : null}
          </TextField>
        ))}
      </Box>
    </FormDialog>
  );
}

/**
 * Update Patient # (spec 2 section 5): the new number must be a UUID (versions 1-5); Update stays disabled until it
 * is. The server refuses a number already in use (409, its message shown) and keeps who/when/from/to on the patient.
 */
export function UpdatePatientNumberDialog(props: {
  patient: PatientRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { patient, onClose, onDone } = props;
  const t = usePatientsT();
  const api = usePatientMethods();
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, save } = useSave();
  const rule = patientNumberProblem(to, patient.userId);

  const update = () => {
    setProblem(null);
    const failure = (e: unknown) => errorMessage(e, t('patients.numberFailed'));
    return save(
      () => api.updatePatientNumber({ fromId: patient.userId, toId: to.trim(), version: patient.version }),
      { success: t('patients.numberUpdated'), onDone, onError: (e) => setProblem(failure(e)), failure },
    );
  };

  return (
    <FormDialog
      title={t('patients.numberTitle')}
      onClose={onClose}
      testId="patient-number-dialog"
      contentSx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
      busy={busy}
      cancelLabel={t('patients.cancel')}
      submitLabel={t('patients.update')}
      onSubmit={update}
      submitDisabled={rule !== null}
      submitTestId="patient-number-submit"
    >
      <TextField size="small" label={t('patients.currentNumber')} value={patient.userId} disabled />
      <TextField
        size="small"
        required
        autoFocus
        label={t('patients.newNumber')}
        value={to}
        onChange={(e) => setTo(e.target.value)}
        error={to !== '' && rule !== null}
        helperText={
          to !== '' && rule === 'invalid'
            ? t('patients.numberInvalid')
            : to !== '' && rule === 'same'
              ? t('patients.numberSame')
              : t('patients.numberHelp')
        }
        slotProps={{ htmlInput: { 'data-testid': 'patient-number-input' } }}
      />
      {problem ? (
        <Alert severity="error" data-testid="patient-number-problem">
          {problem}
        </Alert>
      ) : null}
    </FormDialog>
  );
}
