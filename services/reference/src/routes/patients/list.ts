import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  type AuditRouteConfig,
  can,
  errorReplies,
  type Facet,
  facetSchema,
  forbidden,
  listQuerystring,
  listReply,
  listSubject,
  type ListQuery,
  parseListQuery,
  requireUser,
  runFacets,
  runList,
  sendList,
  type SessionUser,
  typed,
} from '@onco/platform';
import { PATIENT_PICK_MAX, PATIENT_PICK_MIN_CHARS } from '@onco/domain';
import { facetNameCaches } from '../../name-cache';
import { pickPatients } from '../../use-cases/patient-picker';
import { and, type RouteDeps } from '../shared';
import {
  NOT_MERGED,
  PATIENT_READERS,
  patientReply,
  patientScope,
  patientsResource,
  presentPatient as present,
} from './resource';

/** The lists' scope: the user's patients, merged duplicates left out (GET /patients/:id still answers them). */
const listScope = (user: SessionUser) => and(patientScope(user), NOT_MERGED);

/** Search is for users who may search patients (spec 2 section 2.6 "only if canSearchPatient"). */
function checkSearch(user: SessionUser, query: ListQuery) {
  if (query.q && !can(user, 'CAN_SEARCH_PATIENT'))
    throw forbidden('Searching patients needs the CAN_SEARCH_PATIENT permission.');
}

/**
 * Facet items with the account, provider and location names (this service's own directories). A patient in
 * the user's scope may also belong to accounts outside it (ordered for elsewhere too): the Account facet lists
 * only the user's own accounts, so another account's name never reaches them (decision, docs/decisions.md
 * "Patients").
 */
function facetLabeller({ models }: RouteDeps) {
  /** Facet labels: names by id, one cache per directory (ids of different directories may coincide). */
  const nameCaches = facetNameCaches(models);
  return async (unscoped: Facet[], user: SessionUser): Promise<Facet[]> => {
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
}

/** A page of patients (the list, the picker) is a read naming each patient served (docs/audit.md "Reads"). */
const PATIENT_LIST_READ: AuditRouteConfig = { record: 'patient', subject: listSubject((row) => row.id) };

/** The patients list and its facets (spec 2 section 7): merged duplicates left out, facets labelled with names. */
export function registerPatientListRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = typed(app);
  const { models } = deps;
  const labelFacets = facetLabeller(deps);

  r.get(
    '/patients',
    {
      // each page served names its patients in the audit trail
      config: { permission: PATIENT_READERS, audit: PATIENT_LIST_READ },
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
      const result = await runList(models.Patient, patientsResource, query, listScope(user), {
        map: (doc) => present(doc, user),
      });
      if (result.facets) result.facets = await labelFacets(result.facets, user);
      return sendList(reply, patientsResource, query, result);
    },
  );

  r.get(
    '/patients/picker',
    {
      config: { permission: PATIENT_READERS, audit: PATIENT_LIST_READ },
      schema: {
        tags: ['reference'],
        summary: `The user's patients whose name, patient # or MRN contains the text (at least ${PATIENT_PICK_MIN_CHARS} characters), at most ${PATIENT_PICK_MAX}, by name: the new-message form's patient search`,
        querystring: z.object({ text: z.string().max(100) }),
        response: {
          200: z.object({
            content: z.array(
              z.object({
                id: z.string(),
                name: z.string().nullable(),
                userId: z.string().nullable(),
                dateOfBirth: z.string().nullable(),
              }),
            ),
          }),
          ...errorReplies,
        },
      },
    },
    async (req) => ({ content: await pickPatients(deps, requireUser(req), req.query.text) }),
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
      const facets = await runFacets(models.Patient, patientsResource, query, listScope(user), query.facets);
      return { content: await labelFacets(facets, user) };
    },
  );
}
