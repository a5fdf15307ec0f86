/** The `billing-case` family: a billing case was created or changed status. */
import { z } from 'zod';
import { Actor, BillingCaseStatus } from './common';
import { id, instant } from './fields';

export const BillingCaseDataV1 = z
  .object({
    billingCaseId: id('Billing case entity id; also the event subject'),
    testOrderId: id('Test order entity id the case bills'),
    requisitionId: id('Requisition entity id'),
    caseStatus: BillingCaseStatus.describe('Case status after the change'),
    previousStatus: BillingCaseStatus.nullable().describe('Case status before the change; null when created'),
    billingCode: z.string().max(100).nullable().describe('Billing (CPT/PLA) code, null if not assigned'),
    errorDetails: z
      .string()
      .max(10_000)
      .nullable()
      .describe('Error text from XIFIN or the submission worker, null when none'),
    changedBy: Actor,
    changedOn: instant('When the change happened'),
  })
  .describe('A billing case was created or changed status');
export type BillingCaseData = z.infer<typeof BillingCaseDataV1>;
