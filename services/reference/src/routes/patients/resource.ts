import { z } from 'zod';
import type { Permission } from '@onco/domain';
import { badRequest, can, dateOut, scopeFilter, type SessionUser, toApi } from '@onco/platform';
import { checkPatient, PATIENT_LABELS } from '../../rules';
import { directoryResource } from '../scoped-resource';
import { fieldErrors, personReply, str, text } from '../shared';

export const patientsResource = directoryResource({
  name: 'patients',
  fields: {
    userId: { type: 'string', filter: true, sort: true },
    firstName: { type: 'string', filter: true, sort: true },
    middleName: { type: 'string', filter: true, sort: true },
    lastName: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    birthSex: { type: 'string', filter: true, sort: true },
    dateOfBirth: { type: 'string', filter: true, sort: true },
    mrn: { type: 'string', filter: true, sort: true },
    diagnosis: { type: 'string', filter: true, sort: true },
    accountIds: { type: 'id', filter: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    physicianIds: { type: 'id', filter: true },
    physicianId: { type: 'id', path: 'physicianIds', filter: true },
    hospitalLocationIds: { type: 'id', filter: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocationIds', filter: true },
  },
  search: ['name', 'firstName', 'lastName', 'userId', 'mrn'],
  // the patients list's Account, Provider and Hospital filters (spec 2 section 2.6): values are ids, each item
  // labelled with the name (see labelFacets)
  facets: [
    { name: 'account_facet', field: 'accountIds', unwind: 'accountIds' },
    { name: 'physician_facet', field: 'physicianIds', unwind: 'physicianIds' },
    { name: 'hospital_location_facet', field: 'hospitalLocationIds', unwind: 'hospitalLocationIds' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
});

export const patientReply = z.object({
  ...personReply,
  race: str,
  ethnicity: str,
  address: z.object({ street: str, city: str, state: str, postalCode: str, country: str }).nullish(),
  phone: str,
  fax: str,
  email: str,
  mrn: str,
  dateOfBirth: str,
  birthSex: str,
  trialName: str,
  studyPatientId: str,
  diagnosis: str,
  accountIds: z.array(z.string()),
  physicianIds: z.array(z.string()),
  hospitalLocationIds: z.array(z.string()).nullish(),
  /** the Update Patient # audit trail: who renumbered the patient, when, from which number to which */
  numberHistory: z
    .array(
      z.object({
        fromId: z.string(),
        toId: z.string(),
        changedBy: z.string(),
        changedByName: z.string().nullish(),
        changedOn: dateOut,
      }),
    )
    .nullish(),
  /** whether this user may edit the patient (Edit Patient, Update Patient #, merge: spec 2 section 6) */
  canEdit: z.boolean().optional(),
  /** the primary patient this duplicate was merged into (Merge Patients), null otherwise */
  mergedInto: z.string().nullish(),
  /** the merge that made it a duplicate (GET /patients/merges/{mergeId}), null otherwise */
  mergeId: z.string().nullish(),
});

/** A patient as replies show it: its fields and whether this user may edit it (a merged one: never). */
export const presentPatient = (doc: Record<string, any>, user: SessionUser) => ({
  ...toApi(doc),
  mergedInto: doc.mergedInto ?? null,
  mergeId: doc.mergeId ?? null,
  canEdit: !doc.mergedInto && PATIENT_EDITORS.some((p) => can(user, p)),
});

/** The 400 of a write to a merged patient (edit, renumber, merge again, billing entries). */
export const mergedPatientError = (doc: { userId?: string | null; mergedInto?: string | null }) =>
  badRequest(
    `Patient ${doc.userId ?? ''} has been merged into another patient and can no longer be changed.`,
    {
      field: 'id',
      mergedInto: doc.mergedInto,
    },
  );

/** The patients lists hide merged duplicates (like deleted ones); GET /patients/:id still answers them. */
export const NOT_MERGED = { mergedInto: null };

/** Who reads patients: the patients pages and the requisition's patient pick (not ROLE_PATIENT users). */
export const PATIENT_READERS: Permission[] = [
  'VIEW_PATIENTS_PAGE',
  'VIEW_PATIENT_PAGE',
  'CAN_SEARCH_PATIENT',
  'CAN_CREATE_TRF',
];

/**
 * Who edits a patient: the patients page's Edit Patient (VIEW_PATIENT_ACTIONS) and the requisition wizard's
 * patient block (CAN_CREATE_TRF, CAN_EDIT_TRF: spec 1 section 7 "GET/PUT patients ... patient pick and edit").
 */
export const PATIENT_EDITORS: Permission[] = ['VIEW_PATIENT_ACTIONS', 'CAN_CREATE_TRF', 'CAN_EDIT_TRF'];

/**
 * The patient form (spec 2 section 5 "Patient edit form"). A field left out keeps its stored value, null clears
 * it; the merged record is then checked as a whole. The patient number (userId), accounts and physicians are
 * not edited here (Update Patient # and merge are their own calls).
 */
export const patientEditBody = z.object({
  firstName: text(100),
  middleName: text(100),
  lastName: text(100),
  dateOfBirth: text(10),
  birthSex: text(20),
  race: text(100),
  ethnicity: text(100),
  mrn: text(64),
  trialName: text(200),
  studyPatientId: text(100),
  diagnosis: text(200),
  email: text(254),
  phone: text(20),
  fax: text(20),
  address: z
    .object({
      street: text(200),
      city: text(100),
      state: text(50),
      postalCode: text(20),
      zip: text(20),
      country: text(100),
    })
    .nullish(),
  /** the version read; a stale one is a 409 */
  version: z.number().int().min(0).optional(),
});

const EDITABLE = [
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'birthSex',
  'race',
  'ethnicity',
  'mrn',
  'trialName',
  'studyPatientId',
  'diagnosis',
  'email',
  'phone',
  'fax',
] as const;

/** Spec 2 section 5 ("Data scope"): patients of the user's accounts or of the physicians they act for. */
export const patientScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'accountIds', physician: 'physicianIds' });

/**
 * The edit of a patient (PUT /patients/:id): a merged one takes none (400); otherwise the body's fields over the
 * stored ones (an address field left out keeps its value, a null address clears it), checked as a whole.
 */
export function editedPatient(b: z.infer<typeof patientEditBody>, current: any): Record<string, unknown> {
  if (current.mergedInto) throw mergedPatientError(current);
  const merged: Record<string, any> = {};
  for (const f of EDITABLE) merged[f] = b[f] !== undefined ? b[f] : current[f];
  const stored = current.address ?? {};
  const a = b.address === null ? {} : (b.address ?? {});
  const pick = (k: 'street' | 'city' | 'state' | 'country') =>
    a[k] !== undefined ? a[k] : b.address === null ? null : stored[k];
  const zip = a.postalCode !== undefined ? a.postalCode : a.zip;
  merged.address = {
    street: pick('street'),
    city: pick('city'),
    state: pick('state'),
    country: pick('country'),
    postalCode: zip !== undefined ? zip : b.address === null ? null : stored.postalCode,
  };
  const checked = checkPatient(merged, new Date());
  if ('errors' in checked) throw fieldErrors(checked.errors, PATIENT_LABELS);
  return checked.value as unknown as Record<string, unknown>;
}
