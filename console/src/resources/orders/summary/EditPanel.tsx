import { Box, Paper, TextField, Typography } from '@mui/material';
import { clinicalFieldLocked } from '@onco/domain';
import { usePermissions } from 'react-admin';
import { useOrdersT } from '../list/useOrdersT';
import type { Requisition } from './requisition';
import { SpecimenEdit, type SpecimenValues } from './SpecimenEdit';

/** The patient fields the summary's Edit offers (the server applies the Edit rule and checks every value). */
export const PATIENT_EDIT_FIELDS = [
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'mrn',
  'phone',
  'email',
  'race',
  'ethnicity',
  'trialName',
  'studyPatientId',
] as const;

/** Fields edited as calendar dates (yyyy-MM-dd on the wire; the server checks each date's window). */
const DATE_FIELDS = new Set<string>(['dateOfBirth']);

/**
 * The blocks being edited and their values: the patient's fields as text, and the two specimen blocks whole (the
 * wizard's Specimen step edits them: SpecimenEdit). A clinical reviewer without Edit holds the specimens only.
 */
export type EditValues = { patient?: Record<string, string> } & Partial<SpecimenValues>;
export type EditBlock = 'patient' | 'specimens';

/**
 * What a clinical reviewer without the Edit action may edit on a submitted order (spec 1 section 4: the Specimen
 * link shows for CAN_REVIEW_DIAGNOSIS): the specimens. The server saves nothing else from them.
 */
export const REVIEWER_EDIT_BLOCKS: readonly EditBlock[] = ['specimens'];

export function initialEditValues(
  r: Requisition,
  blocks: readonly EditBlock[] = ['patient', 'specimens'],
): EditValues {
  const out: EditValues = {};
  if (blocks.includes('patient')) {
    const src = (r.patient ?? {}) as Record<string, unknown>;
    out.patient = Object.fromEntries(
      PATIENT_EDIT_FIELDS.map((f) => [
        f,
        src[f] == null ? '' : DATE_FIELDS.has(f) ? String(src[f]).slice(0, 10) : String(src[f]),
      ]),
    );
  }
  if (blocks.includes('specimens')) {
    out.tumorSpecimen = { ...(r.tumorSpecimen ?? {}) };
    out.normalSpecimen = { ...(r.normalSpecimen ?? {}) };
  }
  return out;
}

/**
 * The save body, with the version: the patient's edited fields merged over the stored patient (empty text clears a
 * field), the specimen blocks as edited (each began as a copy of the stored block).
 */
export function editBody(r: Requisition, values: EditValues): Record<string, unknown> {
  const body: Record<string, unknown> = { version: (r as { version?: number }).version };
  if (values.patient) {
    const merged: Record<string, unknown> = { ...((r.patient ?? {}) as Record<string, unknown>) };
    for (const [k, v] of Object.entries(values.patient)) merged[k] = v.trim() === '' ? null : v.trim();
    body.patient = merged;
  }
  if (values.tumorSpecimen) body.tumorSpecimen = values.tumorSpecimen;
  if (values.normalSpecimen) body.normalSpecimen = values.normalSpecimen;
  return body;
}

/** Edit mode of the summary: the patient's editable fields and the wizard's Specimen step. */
export function EditPanel({
  r,
  values,
  onChange,
}: {
  r: Requisition;
  values: EditValues;
  onChange: (v: EditValues) => void;
}) {
  const t = useOrdersT();
  const { permissions = [] } = usePermissions<string[]>();
  // a clinical field the user may not set is shown, not editable (the server refuses a change of it)
  const locked = (f: string) => clinicalFieldLocked(`patient.${f}`, permissions);
  const label = (f: string) =>
    f === 'mrn'
      ? t('orders.summary.mrn')
      : f === 'dateOfBirth'
        ? t('orders.summary.dateOfBirth')
        : t(`orders.summary.field.${f}`);
  const specimens =
    values.tumorSpecimen && values.normalSpecimen
      ? { tumorSpecimen: values.tumorSpecimen, normalSpecimen: values.normalSpecimen }
      : null;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, borderRadius: 2, mb: 2, borderColor: 'primary.main' }}
      data-testid="summary-edit"
    >
      {values.patient ? (
        <Box sx={{ mb: 2 }}>
          <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1, color: 'primary.dark' }}>
            {t('orders.summary.section.patient')}
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
            }}
          >
            {PATIENT_EDIT_FIELDS.map((f) => (
              <TextField
                key={f}
                size="small"
                type={DATE_FIELDS.has(f) ? 'date' : 'text'}
                label={label(f)}
                value={values.patient?.[f] ?? ''}
                disabled={locked(f)}
                onChange={(e) => onChange({ ...values, patient: { ...values.patient, [f]: e.target.value } })}
                slotProps={{
                  ...(DATE_FIELDS.has(f) ? { inputLabel: { shrink: true } } : {}),
                  htmlInput: { 'data-testid': `edit-patient-${f}`, maxLength: 200 },
                }}
              />
            ))}
          </Box>
        </Box>
      ) : null}
      {specimens ? (
        <Box data-testid="summary-edit-specimens">
          <SpecimenEdit r={r} value={specimens} onChange={(v) => onChange({ ...values, ...v })} />
        </Box>
      ) : null}
    </Paper>
  );
}
