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
  typed,
} from '@onco/platform';
import { auditReply, loadScoped, str, type RouteDeps } from './shared';

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
}
