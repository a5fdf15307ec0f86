import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Permission } from '@onco/domain';
import {
  idParams,
  type ListResource,
  listRoutes,
  requireUser,
  scopeFilter,
  type SessionUser,
  errorReplies,
  typed,
} from '@onco/platform';
import { checkPatient, PATIENT_LABELS } from '../rules';
import { auditReply, fieldErrors, loadScoped, str, text, updateScoped, type RouteDeps } from './shared';

export const patientsResource: ListResource = {
  name: 'patients',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
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
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'firstName', 'lastName', 'userId', 'mrn'],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const patientReply = z.object({
  ...auditReply,
  userId: z.string(),
  firstName: z.string(),
  middleName: str,
  lastName: z.string(),
  name: z.string(),
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
});

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

/** Patient pick and patients list (spec 1 section 7; spec 2 section 7). Mounted in the portal area. */
export async function patientRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  listRoutes(app, {
    path: '/patients',
    resource: patientsResource,
    model: models.Patient,
    permission: PATIENT_READERS,
    scope: patientScope,
    tag: 'reference',
    noun: 'patients',
    summary:
      "Patients in the user's scope, 20 a page (filter accountIds, physicianIds, createdOn between; q)",
    row: patientReply,
  });

  r.get(
    '/patients/:id',
    {
      config: { permission: PATIENT_READERS },
      schema: { tags: ['reference'], params: idParams, response: { 200: patientReply } },
    },
    async (req) => loadScoped(models.Patient, req.params.id, patientScope(requireUser(req))),
  );

  r.put(
    '/patients/:id',
    {
      config: { permission: PATIENT_EDITORS },
      schema: {
        tags: ['reference'],
        summary:
          'Edit a patient (names, date of birth not in the future, birth sex, address with zip and city patterns, phone 10 digits)',
        params: idParams,
        body: patientEditBody,
        response: { 200: patientReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      return updateScoped({
        model: models.Patient,
        id: req.params.id,
        scope: patientScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
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
        },
      });
    },
  );
}
