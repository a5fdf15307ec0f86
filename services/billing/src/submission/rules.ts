import { BILLING_MESSAGES, submitCaseProblems, type BillingCaseStatus } from '@onco/domain';
import type { BillingCaseDoc } from '../models';

/**
 * Submit rules for one billing case, pure. `submitRefusal` is spec 3 section 4.3's state rule (caseStatus,
 * testStatus, reviewStatus; answered 409), from @onco/domain's `submitCaseProblems` (the rule the console's Submit
 * button uses) plus the in-flight retry statuses; `claimProblems` are the pre-submit checks of what the case holds,
 * a list of what to fix before anything is sent (answered 400). The billing code is both a section 4.3 condition
 * and a pre-submit check: it is reported with the pre-submit checks, as something to fix, so the user gets one list.
 */

/**
 * Statuses in which a submission is in flight, which section 4.3 does not list (it predates the retry
 * statuses): a second Submit while a retry is scheduled, sending or recording its answer would race the worker, so
 * it is refused too. RETRY_FAILED is a resting state and may be submitted again (a new generation).
 */
export const IN_FLIGHT: readonly BillingCaseStatus[] = [
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];

/** Why section 4.3 forbids submitting the case now, or null when it allows it (billing code aside). */
export function submitRefusal(
  c: Pick<BillingCaseDoc, 'caseStatus' | 'testStatus' | 'reviewStatus'>,
): string | null {
  if (IN_FLIGHT.includes(c.caseStatus))
    return `The billing case is being submitted (status ${c.caseStatus}); wait for the answer.`;
  // the billing code is checked by claimProblems (400 with the list of what to fix)
  const reasons = submitCaseProblems({ ...c, billingCode: 'checked-by-claimProblems' });
  return reasons.length ? reasons.join(' ') : null;
}

export interface ClaimProblem {
  field: string;
  message: string;
}

const blank = (v: string | null | undefined) => !v || !v.trim();

/**
 * What the case must hold for a claim the billing system would not reject anyway. Payor/insurance, ICD-10 and
 * the patient's address come from the requisition in a later step (docs/billing-gateway.md), and so do their checks.
 */
export function claimProblems(c: BillingCaseDoc): ClaimProblem[] {
  const out: ClaimProblem[] = [];
  if (blank(c.billingCode)) out.push({ field: 'billingCode', message: BILLING_MESSAGES.billingCodeRequired });
  if (blank(c.testId)) out.push({ field: 'testId', message: 'Test # is missing' });
  if (!c.testType) out.push({ field: 'testType', message: 'Test Type is missing' });
  if (!c.patient?.id || blank(c.patient.name)) out.push({ field: 'patient', message: 'Patient is missing' });
  if (!c.account?.id) out.push({ field: 'account', message: 'Account is missing' });
  if (!c.physician?.id || blank(c.physician.name))
    out.push({ field: 'physician', message: 'Ordering Provider is missing' });
  if (c.orderType === 'SUBSEQUENT_ORDER' && blank(c.timePoint))
    out.push({ field: 'timePoint', message: 'Timepoint is required for a subsequent order' });
  return out;
}
