import { Box, Paper, TextField, Typography } from '@mui/material';
import { clinicalFieldLocked } from '@onco/domain';
import { usePermissions } from 'react-admin';
import { useOrdersT } from '../list/useOrdersT';
import type { Requisition } from './requisition';

/** The fields the summary's Edit offers, by block (the server applies the Edit rule and checks every value). */
export const EDIT_FIELDS = {
  patient: [
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
  ],
  tumorSpecimen: [
    'primaryTumorSite',
    'specimenId',
    'collectionDate',
    'dateOfDiagnosis',
    'icd10Codes',
    'drugName',
  ],
  normalSpecimen: ['collectionDate'],
} as const;

/** Fields edited as calendar dates (yyyy-MM-dd on the wire; the server checks each date's window). */
const DATE_FIELDS = new Set<string>(['dateOfBirth', 'collectionDate', 'dateOfDiagnosis']);
const SECTION: Record<EditBlock, string> = {
  patient: 'orders.summary.section.patient',
  tumorSpecimen: 'orders.summary.section.tumor',
  normalSpecimen: 'orders.summary.section.normal',
};
export type EditBlock = keyof typeof EDIT_FIELDS;
/** The blocks being edited (all of them, or the specimens for a clinical reviewer) and their values. */
export type EditValues = Partial<Record<EditBlock, Record<string, string>>>;

/**
 * What a clinical reviewer without the Edit action may edit on a submitted order (spec 1 section 4: the Specimen
 * link shows for CAN_REVIEW_DIAGNOSIS): the specimens. The server saves nothing else from them.
 */
export const REVIEWER_EDIT_BLOCKS: readonly EditBlock[] = ['tumorSpecimen', 'normalSpecimen'];

export function initialEditValues(
  r: Requisition,
  blocks: readonly EditBlock[] = Object.keys(EDIT_FIELDS) as EditBlock[],
): EditValues {
  const out: EditValues = {};
  for (const block of blocks) {
    const src = (r[block] ?? {}) as Record<string, unknown>;
    out[block] = Object.fromEntries(
      EDIT_FIELDS[block].map((f) => [
        f,
        src[f] == null ? '' : DATE_FIELDS.has(f) ? String(src[f]).slice(0, 10) : String(src[f]),
      ]),
    );
  }
  return out;
}

/** The save body: each edited block merged over the stored one (empty text clears a field), with the version. */
export function editBody(r: Requisition, values: EditValues): Record<string, unknown> {
  const body: Record<string, unknown> = { version: (r as { version?: number }).version };
  for (const block of Object.keys(values) as EditBlock[]) {
    const merged: Record<string, unknown> = { ...((r[block] ?? {}) as Record<string, unknown>) };
    for (const [k, v] of Object.entries(values[block] ?? {})) merged[k] = v.trim() === '' ? null : v.trim();
    body[block] = merged;
  }
  return body;
}

const LABELS: Record<string, string> = {
  firstName: 'firstName',
  middleName: 'middleName',
  lastName: 'lastName',
  mrn: 'mrn',
  phone: 'phone',
  email: 'email',
  specimenId: 'specimenId',
  icd10Codes: 'icd10',
  drugName: 'drugName',
};

/** Edit mode of the summary: the editable fields of the patient and the tumor and normal specimens. */
export function EditPanel({ values, onChange }: { values: EditValues; onChange: (v: EditValues) => void }) {
  const t = useOrdersT();
  const { permissions = [] } = usePermissions<string[]>();
  // a clinical field the user may not set is shown, not editable (the server refuses a change of it)
  const locked = (block: EditBlock, f: string) => clinicalFieldLocked(`${block}.${f}`, permissions);
  const label = (f: string) =>
    f === 'icd10Codes'
      ? t('orders.summary.icd10')
      : f === 'mrn'
        ? t('orders.summary.mrn')
        : f === 'dateOfBirth'
          ? t('orders.summary.dateOfBirth')
          : t(`orders.summary.field.${LABELS[f] ?? f}`);
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2, borderRadius: 2, mb: 2, borderColor: 'primary.main' }}
      data-testid="summary-edit"
    >
      {(Object.keys(values) as EditBlock[]).map((block) => (
        <Box key={block} sx={{ mb: 2 }}>
          <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1, color: 'primary.dark' }}>
            {t(SECTION[block])}
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
            }}
          >
            {EDIT_FIELDS[block].map((f) => (
              <TextField
                key={f}
                size="small"
                type={DATE_FIELDS.has(f) ? 'date' : 'text'}
                label={label(f)}
                value={values[block]?.[f] ?? ''}
                disabled={locked(block, f)}
                onChange={(e) => onChange({ ...values, [block]: { ...values[block], [f]: e.target.value } })}
                slotProps={{
                  ...(DATE_FIELDS.has(f) ? { inputLabel: { shrink: true } } : {}),
                  htmlInput: { 'data-testid': `edit-${block}-${f}`, maxLength: 200 },
                }}
              />
            ))}
          </Box>
        </Box>
      ))}
    </Paper>
  );
}
