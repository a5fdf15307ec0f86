import { z } from 'zod';
import { BILLING_CASE_STATUSES } from '@onco/domain';
import { toApi } from '@onco/platform';
import { CASE_CHANGE_FIELDS, type BillingCaseDoc } from '../models';

/**
 * What the billing action routes (billing-actions.ts, billing-bulk-actions.ts) share: a case as the API gives it,
 * and its reply schema.
 */

/** A case as the API gives it: `id`, no outbox, the history newest first. */
export function billingCaseOut(doc: BillingCaseDoc) {
  const out = toApi(doc);
  return {
    ...out,
    caseHistory: [...(doc.caseHistory ?? [])]
      .sort((a, b) => new Date(b.createdOn).getTime() - new Date(a.createdOn).getTime())
      .map((e) => ({ ...e })),
  };
}

export const caseReply = z.looseObject({
  id: z.string(),
  testOrderId: z.string(),
  caseStatus: z.enum(BILLING_CASE_STATUSES),
  caseHistory: z.array(
    z.looseObject({
      id: z.string(),
      status: z.enum(BILLING_CASE_STATUSES),
      by: z.string().nullable().optional().describe('who made the change: a user, or system'),
      byId: z.string().nullable().optional().describe("the user's id, or system"),
      changes: z
        .array(
          z.object({
            field: z.enum(CASE_CHANGE_FIELDS),
            from: z.string().nullable(),
            to: z.string().nullable(),
          }),
        )
        .optional()
        .describe('what the change set besides the status (the assignee by name)'),
      reason: z
        .string()
        .nullable()
        .optional()
        .describe(
          'why billing staff set the status by hand (BILLING_COMPLETE, RETIRED_FROM_BILLING, ON_HOLD_EXTERNAL)',
        ),
    }),
  ),
});
