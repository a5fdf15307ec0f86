import {
  BILLING_CASE_STATUSES,
  type BillingCaseStatus,
  type BillingReviewStatus,
  type BillingType,
  type OrderType,
  type TestStatus,
} from '../enums';

/**
 * Billing case rules (spec 3 sections 2.9, 4.3, 5, 6 and 8). Used by the billing service, which enforces them,
 * and by the console, which shows them (the Submit button, the error links, the action dialogs).
 */

/** Case statuses in which Submit to billing is never available (spec 3 section 4.3). */
export const NOT_SUBMITTABLE_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'SUBMITTED_TO_XIFIN',
  'QUEUED_FOR_SUBMISSION',
  'ACCEPTED_BY_XIFIN',
  'CANCELLED',
  'BILLING_COMPLETE',
  'RETIRED_FROM_BILLING',
  'PARTIALLY_ACCEPTED',
  'DUPLICATE_ACCESSION',
  'FIXED_IN_XIFIN',
  'DOC_UPLOAD_PARTIAL',
  'DOC_UPLOAD_FAILED',
  // (ours) a submission in flight: section 4.3 predates the retry statuses; a second Submit would race the
  // worker (the server says so with its own message, services/billing/src/submission/rules.ts)
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];

/** The test statuses a case may be billed in: a report is out (spec 3 section 4.3). */
export const BILLABLE_TEST_STATUSES: readonly TestStatus[] = ['REPORT_COMPLETE', 'REPORT_AMENDED'];

/** The Billing Status values shown as a link to the 'Billing Case Error Details' modal (spec 3 section 2.9). */
export const BILLING_ERROR_STATUSES: readonly BillingCaseStatus[] = [
  'REJECTED_BY_XIFIN',
  'PARTIALLY_ACCEPTED',
  'DUPLICATE_ACCESSION',
  'PAYOR_SYSTEM_DOWN',
  'UPDATE_NOT_ALLOWED',
];

/**
 * Update Billing Status (spec 3 sections 4.3 and 6, and the statuses the spec lists without a path; decision
 * 2026-11-28, docs/billing-gateway.md "Every status and its path"): the statuses billing staff set by hand, the
 * statuses each may be set from, the permission beyond VIEW_BILLING_ACTIONS, and whether a reason is required.
 * - FIXED_IN_XIFIN: a partially accepted or duplicate claim was settled in the billing system (the spec's one).
 * - BILLING_COMPLETE: the billing system took the claim and nothing is left to do for it.
 * - RETIRED_FROM_BILLING: the case will never be billed (a research order, a write-off), from any status not in
 *   flight and not already closed.
 * - ON_HOLD_EXTERNAL: waiting for something outside the platform (a payor's decision, missing paperwork); Submit
 *   takes it off hold (the spec does not refuse Submit in ON_HOLD_EXTERNAL).
 */
export const MANUAL_STATUS_TARGETS = [
  'FIXED_IN_XIFIN',
  'BILLING_COMPLETE',
  'RETIRED_FROM_BILLING',
  'ON_HOLD_EXTERNAL',
] as const satisfies readonly BillingCaseStatus[];
export type ManualStatusTarget = (typeof MANUAL_STATUS_TARGETS)[number];

/** A submission on its way (the worker's statuses): nothing is set by hand while one is out. */
export const IN_FLIGHT_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'QUEUED_FOR_SUBMISSION',
  'SUBMITTED_TO_XIFIN',
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];
/** Closed for good: no status is set by hand from these. */
export const CLOSED_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'CANCELLED',
  'BILLING_COMPLETE',
  'RETIRED_FROM_BILLING',
];

export const MANUAL_STATUS_CHANGES: Record<
  ManualStatusTarget,
  { from: readonly BillingCaseStatus[]; permission: 'CAN_CLOSE_BILLING_CASES' | null; reason: boolean }
> = {
  FIXED_IN_XIFIN: {
    from: ['PARTIALLY_ACCEPTED', 'DUPLICATE_ACCESSION'],
    permission: null,
    reason: false,
  },
  BILLING_COMPLETE: {
    from: ['ACCEPTED_BY_XIFIN', 'FIXED_IN_XIFIN', 'DOC_UPLOAD_SUCCEEDED'],
    permission: 'CAN_CLOSE_BILLING_CASES',
    reason: true,
  },
  RETIRED_FROM_BILLING: {
    from: BILLING_CASE_STATUSES.filter(
      (s) => !IN_FLIGHT_CASE_STATUSES.includes(s) && !CLOSED_CASE_STATUSES.includes(s),
    ),
    permission: 'CAN_CLOSE_BILLING_CASES',
    reason: true,
  },
  ON_HOLD_EXTERNAL: {
    from: [
      'NOT_SUBMITTED',
      'READY_TO_SUBMIT',
      'REJECTED_BY_XIFIN',
      'PAYOR_SYSTEM_DOWN',
      'UPDATE_NOT_ALLOWED',
      'RETRY_FAILED',
      'PARTIALLY_ACCEPTED',
      'DUPLICATE_ACCESSION',
      'DOC_UPLOAD_PARTIAL',
      'DOC_UPLOAD_FAILED',
    ],
    permission: 'CAN_CLOSE_BILLING_CASES',
    reason: true,
  },
};

/** The longest reason a status change keeps. */
export const STATUS_REASON_MAX = 500;

const isManualTarget = (s: BillingCaseStatus): s is ManualStatusTarget =>
  (MANUAL_STATUS_TARGETS as readonly string[]).includes(s);

/** Whether setting `to` by hand needs a reason (the dialog's Reason field is required). */
export const statusChangeNeedsReason = (to: BillingCaseStatus) =>
  isManualTarget(to) && MANUAL_STATUS_CHANGES[to].reason;

/** The Billing Status colours' groups as the case list shows them (spec 3 section 4.3: COMPLETED, ERROR, FAILED). */
export type BillingStatusGroup = 'COMPLETED' | 'ERROR' | 'FAILED';
export function billingStatusGroup(s: BillingCaseStatus | null | undefined): BillingStatusGroup | null {
  if (!s) return null;
  if (
    [
      'ACCEPTED_BY_XIFIN',
      'RETRY_SUCCEEDED',
      'FIXED_IN_XIFIN',
      'BILLING_COMPLETE',
      'DOC_UPLOAD_SUCCEEDED',
    ].includes(s)
  )
    return 'COMPLETED';
  if (s === 'RETRY_FAILED' || s === 'DOC_UPLOAD_FAILED') return 'FAILED';
  if (BILLING_ERROR_STATUSES.includes(s) || s === 'DOC_UPLOAD_PARTIAL') return 'ERROR';
  return null;
}

/** What the Submit rule looks at. */
export interface SubmitCaseInput {
  caseStatus: BillingCaseStatus | null | undefined;
  testStatus: TestStatus | null | undefined;
  reviewStatus: BillingReviewStatus | null | undefined;
  billingCode: string | null | undefined;
}

export const BILLING_MESSAGES = {
  // spec 3 section 5 (dialog validation)
  billingUserRequired: 'Please select a billing user',
  billingStatusRequired: 'Billing Status is required',
  billingCodeRequired: 'Billing Code is required',
  timePointRequired: 'Timepoint is required',
  typeTwoCharacters: 'Type at least 2 characters',
  noMatches: 'No matches',
  // spec 3 section 8 (toasts)
  billingCodeUpdated: 'Billing Code updated successfully',
  billingCodeError: 'Error updating Billing Code',
  billingUserAssigned: 'Billing User assigned successfully',
  billingUserError: 'Error assigning Billing User',
  billingStatusUpdated: 'Billing Status updated successfully',
  billingStatusError: 'Error updating Billing Status',
  submitted: 'Submitted successfully',
  submitError: 'Error submitting billing case',
  noCases: 'No Billing Cases found',
  noHistory: 'No history available.',
  // the server's refusals (409 reasons)
  caseStatusNotSubmittable: (s: string) => `A billing case in status ${s} cannot be submitted.`,
  testNotReported: 'The test has no complete or amended report yet.',
  reviewNotComplete: 'The billing review is not REVIEW_COMPLETE.',
  noBillingCode: 'The billing case has no billing code.',
  statusNotUpdatable: (to: string, s: string) =>
    to === 'FIXED_IN_XIFIN'
      ? `Billing Status can be updated only from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION (this case is ${s}).`
      : `Billing Status cannot be set to ${to} from ${s}.`,
  statusNotOffered: (s: string) =>
    `Billing Status can only be updated to FIXED_IN_XIFIN, BILLING_COMPLETE, RETIRED_FROM_BILLING or ON_HOLD_EXTERNAL, not ${s}.`,
  statusNeedsPermission: (to: string, permission: string) =>
    `Only users with ${permission} may set Billing Status to ${to}.`,
  statusNeedsReason: (to: string) => `A reason is required to set Billing Status to ${to}.`,
  reasonRequired: 'Reason is required',
  timePointNotAllowed:
    'Timepoint can be updated only on a subsequent order whose test is REPORT_COMPLETE or REPORT_AMENDED.',
  caseClosed: (s: string) => `The billing case is ${s} and cannot be changed.`,
  // pre-submit checks (issue 13): what a claim needs, answered as a list of what to fix before anything is sent
  cannotSubmitUntil: (problems: readonly string[]) =>
    `The billing case cannot be submitted until these are fixed: ${problems.join('; ')}.`,
  billingTypeMissing: 'The requisition has no billing information (billing type)',
  payorMissing: (type: string) => `Payor is required for ${type} billing`,
  diagnosisMissing: 'At least one ICD-10 diagnosis code is required',
  diagnosisNotBillable: (code: string) => `ICD-10 code ${code} is not a valid billable code`,
  medicareAddressMissing: "The patient's address (street, city, state, postal code) is required for Medicare",
  // spec 1 section 5: Medicare with a NeXT Personal Dx test needs the drug name and stage (ICD-10: diagnosisMissing)
  medicareDrugNameMissing: 'Drug Name is required for Medicare Payment Type',
  medicareStageMissing: 'Stage is required for Medicare Payment Type',
  // bulk submit (resubmit of the needs-attention view)
  bulkSubmitted: (n: number, of: number) => `${n} of ${of} billing cases submitted`,
} as const;

/**
 * Billing types whose claim goes to a payor, so the primary billing entry must name one (decision, issue 13):
 * SELF bills the patient and FACILITY bills the ordering account, neither needs a payor.
 */
export const PAYOR_BILLING_TYPES: readonly BillingType[] = ['INSURANCE', 'MEDICARE', 'MEDICAID', 'OTHER'];

/**
 * "Needs attention" (issue 13): cases whose submission ended without the claim being taken and that billing staff
 * fix and submit again: retries exhausted (RETRY_FAILED), and claims the billing system refused or would not
 * update (REJECTED_BY_XIFIN, UPDATE_NOT_ALLOWED). PARTIALLY_ACCEPTED and DUPLICATE_ACCESSION are settled in the
 * billing system (Update Billing Status to FIXED_IN_XIFIN), not by a new submission, so they are not here.
 */
export const NEEDS_ATTENTION_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'RETRY_FAILED',
  'REJECTED_BY_XIFIN',
  'UPDATE_NOT_ALLOWED',
];

/** Why Submit is refused, or null when it is allowed (the reasons in the order of spec 3 section 4.3). */
export function submitCaseProblems(c: SubmitCaseInput): string[] {
  const problems: string[] = [];
  if (!c.caseStatus || NOT_SUBMITTABLE_CASE_STATUSES.includes(c.caseStatus))
    problems.push(BILLING_MESSAGES.caseStatusNotSubmittable(c.caseStatus ?? 'unknown'));
  if (!c.testStatus || !BILLABLE_TEST_STATUSES.includes(c.testStatus))
    problems.push(BILLING_MESSAGES.testNotReported);
  if (c.reviewStatus !== 'REVIEW_COMPLETE') problems.push(BILLING_MESSAGES.reviewNotComplete);
  if (!c.billingCode || !c.billingCode.trim()) problems.push(BILLING_MESSAGES.noBillingCode);
  return problems;
}

/** Submit to billing is available (spec 3 section 4.3): the console's Submit button and the server's check. */
export function canSubmitCase(c: SubmitCaseInput): boolean {
  return submitCaseProblems(c).length === 0;
}

/** Whether a Billing Status opens the error-details modal. */
export const isBillingErrorStatus = (s: BillingCaseStatus | null | undefined) =>
  !!s && BILLING_ERROR_STATUSES.includes(s);

/**
 * Update Billing Status: the refusal for one case, or null. `granted` are the user's permissions; `reason` the
 * reason given (required for the statuses that need one).
 */
export function billingStatusUpdateError(
  from: BillingCaseStatus | null | undefined,
  to: BillingCaseStatus,
  granted: readonly string[],
  reason?: string | null,
): string | null {
  if (!isManualTarget(to)) return BILLING_MESSAGES.statusNotOffered(to);
  const rule = MANUAL_STATUS_CHANGES[to];
  if (rule.permission && !granted.includes(rule.permission))
    return BILLING_MESSAGES.statusNeedsPermission(to, rule.permission);
  if (!from || !rule.from.includes(from)) return BILLING_MESSAGES.statusNotUpdatable(to, from ?? 'unknown');
  if (rule.reason && !reason?.trim()) return BILLING_MESSAGES.statusNeedsReason(to);
  return null;
}

/** The options of the Update Billing Status dialog for a selection: the statuses every selected case may take. */
export function billingStatusOptions(
  selected: readonly (BillingCaseStatus | null | undefined)[],
  granted: readonly string[],
): ManualStatusTarget[] {
  if (!selected.length) return [];
  return MANUAL_STATUS_TARGETS.filter((to) =>
    selected.every((from) => billingStatusUpdateError(from, to, granted, 'x') === null),
  );
}

/** Update Timepoint: only a subsequent order whose test report is complete or amended (spec 3 section 6). */
export function timePointError(c: {
  orderType: OrderType | null | undefined;
  testStatus: TestStatus | null | undefined;
}): string | null {
  return c.orderType === 'SUBSEQUENT_ORDER' && !!c.testStatus && BILLABLE_TEST_STATUSES.includes(c.testStatus)
    ? null
    : BILLING_MESSAGES.timePointNotAllowed;
}

/**
 * Case statuses a test cancellation (deleted requisition, cancelled or merged test) does not change: the claim
 * is at the billing system or the case is already closed, so billing staff settle it there (decision).
 */
export const CASE_STATUSES_KEPT_ON_CANCEL: readonly BillingCaseStatus[] = [
  'CANCELLED',
  'ACCEPTED_BY_XIFIN',
  'PARTIALLY_ACCEPTED',
  'FIXED_IN_XIFIN',
  'BILLING_COMPLETE',
  'RETIRED_FROM_BILLING',
];

/** The case after its test was cancelled (deleted requisition, cancelled or merged test), or null to keep it. */
export function cancelledCaseStatus(caseStatus: BillingCaseStatus): BillingCaseStatus | null {
  return CASE_STATUSES_KEPT_ON_CANCEL.includes(caseStatus) ? null : 'CANCELLED';
}

/**
 * Qualification (decision, issue 13): a case is qualified when Submit would be allowed on a fresh case (report
 * complete or amended, billing review REVIEW_COMPLETE, billing code present). A NOT_SUBMITTED case that
 * qualifies becomes READY_TO_SUBMIT with its caseQualifiedDate; a READY_TO_SUBMIT case that no longer qualifies
 * (e.g. the billing review reopened) returns to NOT_SUBMITTED and loses the date. Other statuses are the
 * submission's and never change here. Returns the fields to set (empty when nothing changes).
 */
export function qualification(
  c: SubmitCaseInput & { caseQualifiedDate?: Date | null },
  now: Date,
): { caseStatus?: BillingCaseStatus; caseQualifiedDate?: Date | null } {
  const qualified = canSubmitCase({ ...c, caseStatus: 'NOT_SUBMITTED' });
  if (c.caseStatus === 'NOT_SUBMITTED' && qualified)
    return { caseStatus: 'READY_TO_SUBMIT', caseQualifiedDate: now };
  if (c.caseStatus === 'READY_TO_SUBMIT' && !qualified)
    return { caseStatus: 'NOT_SUBMITTED', caseQualifiedDate: null };
  return {};
}

/**
 * Case statuses in which the billing actions (code, assignee, timepoint) change nothing (decision): the case is
 * closed (cancelled, retired, complete) or its claim is on its way to the billing system, where a code changed
 * now would not be the one sent.
 */
export const CASE_STATUSES_LOCKED_FOR_ACTIONS: readonly BillingCaseStatus[] = [
  'CANCELLED',
  'RETIRED_FROM_BILLING',
  'BILLING_COMPLETE',
  'QUEUED_FOR_SUBMISSION',
  'SUBMITTED_TO_XIFIN',
  'RETRY_IN_PROGRESS',
];

/** The refusal of a billing action (Update Billing Code, Update Timepoint) on a case, or null. */
export function caseActionError(caseStatus: BillingCaseStatus): string | null {
  return CASE_STATUSES_LOCKED_FOR_ACTIONS.includes(caseStatus)
    ? BILLING_MESSAGES.caseClosed(caseStatus)
    : null;
}
