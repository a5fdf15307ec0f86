import { PATIENT_PICK_MAX, PATIENT_PICK_MIN_CHARS } from '@onco/domain';
import { badRequest, containsPattern, type SessionUser } from '@onco/platform';
import { NOT_MERGED, patientScope } from '../routes/patients/resource';
import { and } from '../routes/shared';
import type { ReferenceDeps } from './deps';

/** A patient as a picker lists it. */
export interface PatientPick {
  id: string;
  name: string | null;
  userId: string | null;
  dateOfBirth: string | null;
}

/** What a pick reads of a patient. */
const PICK_FIELDS = { name: 1, firstName: 1, lastName: 1, userId: 1, dateOfBirth: 1 } as const;

const pick = (d: Record<string, any>): PatientPick => ({
  id: d._id,
  name: d.name ?? ([d.firstName, d.lastName].filter(Boolean).join(' ') || null),
  userId: d.userId ?? null,
  dateOfBirth: d.dateOfBirth ?? null,
});

/**
 * The user's patients whose name, patient # or MRN contains `text` (at least 2 characters; merged duplicates
 * left out), at most 50, by name: the new-message form's patient search.
 */
export async function pickPatients(
  { models }: ReferenceDeps,
  user: SessionUser,
  text: string,
): Promise<PatientPick[]> {
  const q = text.trim();
  if (q.length < PATIENT_PICK_MIN_CHARS)
    throw badRequest(`Type at least ${PATIENT_PICK_MIN_CHARS} characters to search patients.`, {
      field: 'text',
    });
  const re = containsPattern(q, 'text');
  const docs = await models.Patient.find(
    and(patientScope(user), NOT_MERGED, { $or: [{ name: re }, { userId: re }, { mrn: re }] }),
    PICK_FIELDS,
  )
    .sort({ name: 1, _id: 1 })
    .limit(PATIENT_PICK_MAX)
    .lean()
    .exec();
  return docs.map(pick);
}

/** One patient the user may read (merged ones too: an old message may name one), or null. */
export async function readablePatient(
  { models }: ReferenceDeps,
  user: SessionUser,
  id: string,
): Promise<PatientPick | null> {
  const doc = await models.Patient.findOne(and({ _id: id }, patientScope(user)), PICK_FIELDS)
    .lean()
    .exec();
  return doc ? pick(doc) : null;
}
