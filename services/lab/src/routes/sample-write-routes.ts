import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorReplies, requireUser, typed } from '@onco/platform';
import type { LabModels } from '../models';
import {
  copySamples,
  createSamples,
  samplesRequisition,
  updateSamples,
  type SampleServiceOptions,
} from '../samples';
import { lists, samplesRequisitionReply, WRITE } from './sample-route-schemas';

/** Add, change and copy samples (samples.ts); each answers the requisition's samples as they are after it. */
export function registerSampleWriteRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; service: SampleServiceOptions },
) {
  const r = typed(app);
  const { models, service } = opts;

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
}
