import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ORDER_TYPES, SAMPLE_STATUSES, SPECIMEN_TYPES } from '@onco/domain';
import { errorReplies, idParams, type ListResource, listRoutes, requireUser, typed } from '@onco/platform';
import type { LabModels } from '../models';
import {
  copySamples,
  createSamples,
  limsInfo,
  samplesRequisition,
  updateSamples,
  type SampleServiceOptions,
} from '../samples';

/** Domain preferences (spec 2 section 7 "Samples"): GET /oms/api/v1/domainPreferences?filter=... */
export const domainPreferencesResource: ListResource = {
  name: 'domainPreferences',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    domain: { type: 'string', filter: true, sort: true },
    testType: { type: 'string', filter: true, sort: true },
    orderType: { type: 'string', filter: true, sort: true },
    tissueType: { type: 'string', filter: true, sort: true },
    specimenType: { type: 'string', filter: true, sort: true },
    rank: { type: 'number', filter: true, sort: true },
    workOrderNumber: { type: 'string', filter: true, sort: true },
    product: { type: 'string', filter: true, sort: true },
  },
  search: ['domain', 'workOrderNumber', 'product', 'sequencingProduct'],
  defaultSort: { field: 'rank', order: 'asc' },
  defaultPerPage: 20,
};

const day = z.string().max(10).nullish().describe("A calendar day 'YYYY-MM-DD'");
const text = (max = 300) => z.string().max(max).nullish();

/** One sample as the dialog sends it (the rules check the values; unknown keys are stripped). */
const sampleInput = z.object({
  id: z.string().min(1).max(64).optional().describe('The sample id (updates only)'),
  version: z.number().int().min(0).optional().describe('The version read (updates: a stale one is a 409)'),
  status: z.enum(SAMPLE_STATUSES).nullish(),
  specimenId: text(100).describe(
    'Specimen #: letters, digits, hyphen, underscore; required for tumor; locked on edit',
  ),
  specimenType: text(100),
  sampleSite: text(),
  name: text(),
  limsProjectId: text(200),
  limsProjectName: text(),
  accessionId: text(1000).describe('Accession #: slide ids separated by spaces; required for PROCEED'),
  sampleGroupId: text(200).describe('Sample group id (SGI); required for PROCEED'),
  collectedOn: day,
  receivedOn: day,
  trackingNumber: text(200),
  doNotExhaust: z.boolean().nullish(),
  diagnosis: text(),
  accessioner: text(),
  containerLocationValue: text(),
  researcherId: text(200),
  patient: z
    .object({ firstName: text(), lastName: text(), dateOfBirth: day })
    .nullish()
    .describe(
      'Patient names and date of birth as the LIMS gets them (default: the requisition patient name)',
    ),
});

const lists = {
  tumors: z.array(sampleInput).max(50).optional(),
  normals: z.array(sampleInput).max(50).optional(),
  plasmas: z.array(sampleInput).max(50).optional(),
};

const sampleReply = z.looseObject({
  id: z.string(),
  type: z.enum(SPECIMEN_TYPES),
  status: z.enum(SAMPLE_STATUSES).nullable(),
  version: z.number(),
});
const samplesRequisitionReply = z.looseObject({
  id: z.string(),
  testRequisitionId: z.string().nullable(),
  deleted: z.boolean(),
  requisition: z.looseObject({
    accountId: z.string().nullable(),
    testOrders: z.array(z.looseObject({ testType: z.string(), orderType: z.enum(ORDER_TYPES) })),
  }),
  domain: z.string(),
  ruleConfig: z.object({ reviewAccountId: z.string().nullable() }),
  sampleGroupId: z.string().nullable(),
  tumors: z.array(sampleReply),
  normals: z.array(sampleReply),
  plasmas: z.array(sampleReply),
});

const READ = ['VIEW_ORDER_PAGE'] as const;
const WRITE = 'VIEW_SAMPLE_ACTIONS' as const;

/**
 * The samples of a requisition (spec 2 sections 2.8 and 7 "Samples"), in the orders area (/oms/api/v1).
 * Reads need the order page, writes VIEW_SAMPLE_ACTIONS; every route answers 404 for a requisition or sample
 * outside the user's data scope. Each write returns the requisition's samples as they are after it.
 */
export async function sampleRoutes(app: FastifyInstance, opts: { models: LabModels } & SampleServiceOptions) {
  const r = typed(app);
  const { models } = opts;
  const service: SampleServiceOptions = { reviewAccountId: opts.reviewAccountId ?? null, now: opts.now };

  r.get(
    '/testOrderForms/:id/samples',
    {
      config: { permission: [...READ] },
      schema: {
        tags: ['samples'],
        summary: "A requisition's samples: {tumors, normals, plasmas} (the console pages them, 7 a page)",
        description:
          'Also what the sample rules need: the requisition as the lab knows it (account, tests, diagnosis, ' +
          'clinical review), its domain, the rule configuration and the sample group of the first PROCEED sample.',
        params: idParams,
        response: { 200: samplesRequisitionReply, ...errorReplies },
      },
    },
    async (req) => samplesRequisition(models, requireUser(req), req.params.id, service),
  );

  r.post(
    '/createSampleSource',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['samples'],
        summary: 'Add samples to a requisition: body the requisition id with its new samples by kind',
        description:
          'Every sample is checked by the sample rules before any is written: a form problem is a 400 with ' +
          '`details.fields` (e.g. "Sample can not be set to Proceed, SGI error"), a requisition that takes no ' +
          'samples or a sample without a domain preference is a 409, and nothing changes. Each sample is written ' +
          'with its `sample` event (change created).',
        body: z.object({ id: z.string().min(1).max(64).describe('The requisition id'), ...lists }),
        response: { 200: samplesRequisitionReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await createSamples(models, user, req.body, service);
      app.platform.nudgeOutbox();
      return samplesRequisition(models, user, req.body.id, service);
    },
  );

  r.put(
    '/updateSampleSource',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['samples'],
        summary:
          'Change samples of a requisition: body the requisition id with the changed samples (id, version)',
        description:
          'A PROCEED or CANCELLED sample keeps its status; type and specimen # never change. A stale version ' +
          'is a 409. Every change is checked before any is written; each is one conditional update with its ' +
          '`sample` event (change updated).',
        body: z.object({ id: z.string().min(1).max(64).describe('The requisition id'), ...lists }),
        response: { 200: samplesRequisitionReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await updateSamples(models, user, req.body, service);
      app.platform.nudgeOutbox();
      return samplesRequisition(models, user, req.body.id, service);
    },
  );

  const selected = z
    .array(z.object({ id: z.string().min(1).max(64) }))
    .max(200)
    .optional();
  r.post(
    '/copySampleSource',
    {
      config: { permission: WRITE },
      schema: {
        tags: ['samples'],
        summary: 'Copy selected samples of the source requisition into the target requisition',
        description:
          '`toTestOrderForm` is the target; its tumors/normals/plasmas name the selected source samples. PROCEED ' +
          'samples copied to a subsequent order need its parentTestOrderForm, else 409 "Samples could not be ' +
          'copied"; so does a sample the target does not accept. Nothing is copied on refusal; a retried copy ' +
          'adds nothing twice. Each copy carries its `sample` event (change copied).',
        body: z.object({
          sourceMergeTrfId: z.string().min(1).max(64),
          toTestOrderForm: z.object({
            id: z.string().min(1).max(64),
            parentTestOrderForm: z.object({ id: z.string().max(64).nullish() }).nullish(),
            tumors: selected,
            normals: selected,
            plasmas: selected,
          }),
        }),
        response: { 200: samplesRequisitionReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      await copySamples(models, user, req.body, service);
      app.platform.nudgeOutbox();
      return samplesRequisition(models, user, req.body.toTestOrderForm.id, service);
    },
  );

  r.post(
    '/getLimsInfo',
    {
      config: { permission: [...READ, WRITE] },
      schema: {
        tags: ['samples'],
        summary: "A patient's LIMS projects (from the test orders in scope that have a LIMS project #)",
        body: z.looseObject({ id: z.string().min(1).max(64).describe('The patient id') }),
        response: {
          200: z.array(
            z.object({
              testTypes: z.array(z.string()),
              limsProjectId: z.string(),
              testRequisitionId: z.string().nullable(),
              diagnosis: z.string().nullable(),
              testOrderFormId: z.string(),
            }),
          ),
          ...errorReplies,
        },
      },
    },
    async (req) => limsInfo(models, requireUser(req), req.body.id),
  );

  listRoutes(app, {
    path: '/domainPreferences',
    resource: domainPreferencesResource,
    model: models.DomainPreference,
    permission: [...READ, WRITE],
    // reference data of the lab: the same for every user
    scope: () => ({}),
    tag: 'samples',
    noun: 'domain preferences',
    summary:
      'Domain preferences by domain, testType (one test or DUAL), orderType, tissueType, specimenType; first by rank',
  });
}
