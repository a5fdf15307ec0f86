import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_CASE_STATUSES, STATUS_REASON_MAX, type BillingCaseStatus } from '@onco/domain';
import { can, errorReplies, forbidden, requireUser, typed } from '@onco/platform';
import type { BillingModels } from '../models';
import { assignCases, updateCaseStatus } from '../use-cases';
import { billingCaseOut, caseReply } from './billing-action-parts';
import type { BillingDocumentsQueue } from '../submission/documents-queue';

const caseIds = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(500)
  .describe('Billing case ids (all or none: one unknown id is 404, one refused case is 409)');

export function registerBulkActionRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; nudge: () => void; documents: Pick<BillingDocumentsQueue, 'start'> },
) {
  const r = typed(app);
  const { models, nudge, documents } = opts;

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
          'Update Billing Status (all or none): FIXED_IN_XIFIN from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION; ' +
          'BILLING_COMPLETE, RETIRED_FROM_BILLING or ON_HOLD_EXTERNAL with CAN_CLOSE_BILLING_CASES and a reason',
        params: z.object({ status: z.enum(BILLING_CASE_STATUSES) }),
        body: z.union([
          caseIds,
          z.object({
            ids: caseIds,
            reason: z
              .string()
              .max(STATUS_REASON_MAX)
              .optional()
              .describe('Why (required for BILLING_COMPLETE, RETIRED_FROM_BILLING and ON_HOLD_EXTERNAL)'),
          }),
        ]),
        response: { 200: z.array(caseReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { ids, reason } = Array.isArray(req.body) ? { ids: req.body, reason: undefined } : req.body;
      const done = await updateCaseStatus(
        { models },
        user,
        ids,
        req.params.status as BillingCaseStatus,
        reason,
      );
      nudge();
      // a claim fixed in the billing system: its documents' round starts
      await documents.start(done);
      return done.map(billingCaseOut);
    },
  );
}
