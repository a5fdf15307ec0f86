import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorReplies, idParams, type ListResource, listRoutes, requireUser, typed } from '@onco/platform';
import type { LabModels } from '../models';
import { limsInfo, samplesRequisition, type SampleServiceOptions } from '../samples';
import { READ, samplesRequisitionReply, WRITE } from './sample-route-schemas';
import { registerSampleWriteRoutes } from './sample-write-routes';

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
      config: {
        permission: [...READ],
        audit: {
          record: 'sample',
          subject: (r: {
            id: string;
            requisition?: { accountId?: string | null; patient?: { id?: string | null } | null };
          }) => ({
            id: r.id,
            patientId: r.requisition?.patient?.id,
            accountIds: [r.requisition?.accountId],
          }),
        },
      },
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

  registerSampleWriteRoutes(app, { models, service });

  r.post(
    '/getLimsInfo',
    {
      // LIMS project ids are LIMS information (spec 2 section 6): only for users who may see it
      // a patient's LIMS projects: a read of the patient
      config: {
        permission: 'VIEW_LIMS_INFORMATION',
        audit: {
          record: 'patient',
          subject: (_reply, req) => {
            const id = (req.body as { id?: string } | undefined)?.id ?? null;
            return { id, patientId: id };
          },
        },
      },
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
