import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  MSG_PATIENT_NUMBER_INVALID,
  MSG_PATIENT_NUMBER_SAME,
  msgPatientNumberInUse,
  patientNumberProblem,
  type Permission,
} from '@onco/domain';
import {
  actorOf,
  badRequest,
  can,
  conflict,
  dateOut,
  facetSchema,
  forbidden,
  idParams,
  listQuerystring,
  listReply,
  notFound,
  parseListQuery,
  runFacets,
  runList,
  sendList,
  type Facet,
  type ListQuery,
  type ListResource,
  requireUser,
  scopeFilter,
  type SessionUser,
  errorReplies,
  toApi,
  typed,
} from '@onco/platform';
import { checkPatient, PATIENT_LABELS } from '../rules';
import { facetNameCaches } from '../name-cache';
import { and, auditReply, fieldErrors, loadScoped, str, text, updateScoped, type RouteDeps } from './shared';

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
    hospitalLocationIds: { type: 'id', filter: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocationIds', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
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

/** One patient by number within the data scope, not deleted. */
function scopedByNumber(userId: string, scope: Record<string, unknown>): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [{ userId }, { deleted: { $ne: true } }];
  if (Object.keys(scope).length) parts.push(scope);
  return { $and: parts };
}

/** Patient pick and patients list (spec 1 section 7; spec 2 section 7). Mounted in the portal area. */
export async function patientRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  const present = presentPatient;
  /** Facet labels: names by id, one cache per directory (ids of different directories may coincide). */
  const nameCaches = facetNameCaches(models);
  /** Search is for users who may search patients (spec 2 section 2.6 "only if canSearchPatient"). */
  const checkSearch = (user: SessionUser, query: ListQuery) => {
    if (query.q && !can(user, 'CAN_SEARCH_PATIENT'))
      throw forbidden('Searching patients needs the CAN_SEARCH_PATIENT permission.');
  };
  /**
   * Facet items with the account, provider and location names (this service's own directories). A patient in
   * the user's scope may also belong to accounts outside it (ordered for elsewhere too): the Account facet lists
   * only the user's own accounts, so another account's name never reaches them (decision, docs/decisions.md
   * "Patients").
   */
  const labelFacets = async (unscoped: Facet[], user: SessionUser): Promise<Facet[]> => {
    const mine = new Set(user.accountIds ?? []);
    const facets = user.allAccounts
      ? unscoped
      : unscoped.map((f) =>
          f.name === 'account_facet' ? { ...f, items: f.items.filter((i) => mine.has(String(i.value))) } : f,
        );
    const ids = (name: string) =>
      (facets.find((f) => f.name === name)?.items ?? []).map((i) => String(i.value));
    const [accounts, physicians, locations] = await Promise.all([
      nameCaches.account.names(models.Account, ids('account_facet')),
      nameCaches.physician.names(models.Physician, ids('physician_facet')),
      nameCaches.location.names(models.HospitalLocation, ids('hospital_location_facet')),
    ]);
    const byFacet: Record<string, Map<string, string>> = {
      account_facet: accounts,
      physician_facet: physicians,
      hospital_location_facet: locations,
    };
    return facets.map((f) => ({
      name: f.name,
      items: f.items.map((i) => ({ ...i, label: byFacet[f.name]?.get(String(i.value)) ?? String(i.value) })),
    }));
  };

  r.get(
    '/patients',
    {
      config: { permission: PATIENT_READERS },
      schema: {
        tags: ['reference'],
        summary:
          "Patients in the user's scope, 20 a page unless asked (filter accountIds, physicianIds, hospitalLocationIds, createdOn between; q with CAN_SEARCH_PATIENT; facets account_facet, physician_facet, hospital_location_facet, labelled with names)",
        querystring: listQuerystring,
        response: { 200: listReply(patientReply), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const query = parseListQuery(patientsResource, req.query as Record<string, unknown>);
      checkSearch(user, query);
      const result = await runList(
        models.Patient,
        patientsResource,
        query,
        and(patientScope(user), NOT_MERGED),
        {
          map: (doc) => present(doc, user),
        },
      );
      if (result.facets) result.facets = await labelFacets(result.facets, user);
      return sendList(reply, patientsResource, query, result);
    },
  );

  r.get(
    '/patients/facets',
    {
      config: { permission: PATIENT_READERS },
      schema: {
        tags: ['reference'],
        summary:
          'Facets of patients for the same filter: account_facet, physician_facet, hospital_location_facet (value = id, label = name)',
        querystring: listQuerystring,
        response: { 200: z.object({ content: z.array(facetSchema) }), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const qs = req.query as Record<string, unknown>;
      const query = parseListQuery(patientsResource, { ...qs, facets: qs.facets ?? 'true' });
      checkSearch(user, query);
      const facets = await runFacets(
        models.Patient,
        patientsResource,
        query,
        and(patientScope(user), NOT_MERGED),
        query.facets,
      );
      return { content: await labelFacets(facets, user) };
    },
  );

  r.put(
    '/patients/updatePatientId',
    {
      config: { permission: 'CAN_UPDATE_PATIENTID' },
      schema: {
        tags: ['reference'],
        summary:
          'Update Patient #: renumber the patient whose number is fromId to toId (a UUID, versions 1-5); a number in use is a 409; audited on the patient (numberHistory)',
        querystring: z.object({
          fromId: z.string().min(1).max(100),
          toId: z.string().max(100),
          /** the patient version read; a stale one is a 409 */
          version: z.coerce.number().int().min(0).optional(),
        }),
        response: { 200: patientReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const fromId = req.query.fromId.trim();
      const toId = req.query.toId.trim().toLowerCase();
      const problem = patientNumberProblem(toId, fromId);
      if (problem === 'required' || problem === 'invalid')
        throw badRequest(MSG_PATIENT_NUMBER_INVALID, { field: 'toId' });
      if (problem === 'same') throw badRequest(MSG_PATIENT_NUMBER_SAME, { field: 'toId' });
      const scope = patientScope(user);
      const current = (await models.Patient.findOne(scopedByNumber(fromId, scope)).lean().exec()) as any;
      if (!current) throw notFound(`No patient with Patient # ${fromId}.`);
      if (current.mergedInto) throw mergedPatientError(current);
      if (req.query.version !== undefined && req.query.version !== current.version) throw conflict();
      // any patient holding the number (a deleted one too: numbers are never reused)
      if (await models.Patient.exists({ userId: toId }))
        throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
      const actor = actorOf(user);
      const now = new Date();
      const updated = await models.Patient.findOneAndUpdate(
        {
          _id: current._id,
          userId: fromId,
          version: current.version,
          deleted: { $ne: true },
          mergedInto: null,
        },
        {
          $set: { userId: toId, updatedOn: now, updatedBy: user.id },
          $push: {
            numberHistory: {
              fromId,
              toId,
              changedBy: actor.id,
              changedByName: actor.name,
              changedOn: now,
            },
          },
          $inc: { version: 1 },
        },
        { returnDocument: 'after' },
      )
        .lean()
        .exec()
        .catch((err: unknown) => {
          // the unique index on userId: another renumbering took the number in between
          if ((err as { code?: unknown })?.code === 11000)
            throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
          throw err;
        });
      if (!updated) throw conflict();
      return present(updated as Record<string, any>, user);
    },
  );

  r.get(
    '/patients/:id',
    {
      config: { permission: PATIENT_READERS },
      schema: { tags: ['reference'], params: idParams, response: { 200: patientReply } },
    },
    async (req) => {
      const user = requireUser(req);
      return present(await loadScoped(models.Patient, req.params.id, patientScope(user)), user);
    },
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
      const updated = await updateScoped({
        model: models.Patient,
        id: req.params.id,
        scope: patientScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
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
        },
      });
      return present(updated, user);
    },
  );
}
