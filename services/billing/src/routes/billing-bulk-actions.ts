import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_CASE_STATUSES, type BillingCaseStatus } from '@onco/domain';
import { can, errorReplies, forbidden, requireUser, typed } from '@onco/platform';
import type { BillingModels } from '../models';
import { assignCases, updateCaseStatus } from '../use-cases';
import { billingCaseOut, caseReply } from './billing-action-parts';

const caseIds = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(500)
  .describe('Billing case ids (all or none: one unknown id is 404, one refused case is 409)');

export function registerBulkActionRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; nudge: () => void },
) {
  const r = typed(app);
  const { models, nudge } = opts;

  r.post(
    '/billing/assign/:billingSpecialistId',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Assign Billing User to one or many cases (CAN_UPDATE_ASSIGNEE; all or none)',
        params: z.object({ billingSpecialistId: z.string().min(1).max(64) }),
        body: caseIds,
        response: { 200: z.array(caseReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!can(user, 'CAN_UPDATE_ASSIGNEE')) throw forbidden();
      const done = await assignCases({ models }, user, req.params.billingSpecialistId, req.body);
      nudge();
      return done.map(billingCaseOut);
    },
  );

  r.put(
    '/billing/status/:status',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary:
          'Update Billing Status: PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION to FIXED_IN_XIFIN (all or none)',
        params: z.object({ status: z.enum(BILLING_CASE_STATUSES) }),
        body: caseIds,
        response: { 200: z.array(caseReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await updateCaseStatus({ models }, user, req.body, req.params.status as BillingCaseStatus);
      nudge();
      return done.map(billingCaseOut);
    },
  );
}
