import type { BillingCaseStatus, BillingReviewStatus, OrderType, TestStatus, TestType } from '../enums';
import type { RequisitionBillingSummary } from '../requisition/billing-summary';
import type { IdNameRef, RecordFields, WireDate } from './record';

/**
 * A billing case (spec 3 section 3 "Billing case", states in section 4.3) as the billing service stores it
 * (services/billing/src/models/billing-case.ts, dates `Date`) and GET /bis/api/v1/billingCases returns it
 * (`BillingCaseRow`, dates ISO text).
 */

/** A field a person changed on a case, as its history entry records it (beyond the spec's entry fields). */
export const CASE_CHANGE_FIELDS = ['billingCode', 'timePoint', 'assignee'] as const;
export type CaseChangeField = (typeof CASE_CHANGE_FIELDS)[number];
export interface CaseChange {
  field: CaseChangeField;
  /** the value before and after (the assignee by name); null when there was none */
  from: string | null;
  to: string | null;
}

/** One entry of a case's history. */
export interface CaseHistoryFields<D> {
  id: string;
  createdOn: D;
  status: BillingCaseStatus;
  errorDetails: string | null;
  /** who made the change: a user's name, or `system` (the worker, the consumers); absent on older entries */
  by?: string | null;
  /** the user's id (`system` for the worker and the consumers): names are not unique */
  byId?: string | null;
  /** what else the change set (billing code, timepoint, assignee); absent or empty when only the status moved */
  changes?: CaseChange[];
  /** why billing staff set the status by hand (BILLING_COMPLETE, RETIRED_FROM_BILLING, ON_HOLD_EXTERNAL) */
  reason?: string | null;
}

/** What the claim is checked with and carries from the requisition (events of schemaVersion 4). */
export interface ClaimInfo extends Omit<RequisitionBillingSummary, 'medicareDataMissing'> {
  /** null: the requisition's events did not carry them (older than schemaVersion 4) */
  diagnosisCodes: string[] | null;
  /** absent: the requisition's events did not say (older than requisition-submitted 5 / requisition-changed 8) */
  medicareDataMissing?: RequisitionBillingSummary['medicareDataMissing'];
}

/**
 * The current submission of a case to the billing system (services/billing/src/submission/): each Submit starts
 * a new `generation`; the claim's idempotency key and the BullMQ job id are the case id plus the generation, so a
 * re-run job never sends a second claim and a stale job (an older generation) stops. `attempts` counts the sends
 * of this generation, `lastError` the last transient failure (timeout, network, 5xx, payor down).
 */
export interface BillingSubmissionFields<D> {
  generation: number;
  attempts: number;
  lastError: string | null;
  /** when Submit queued this generation (also the claim's submittedOn, so a re-sent claim is the same claim) */
  queuedOn: D | null;
  queuedBy: string | null;
}

/** A billing case's own fields (its history apart: the server always has it, a list row may not). */
export interface BillingCaseFields<D> extends RecordFields<D> {
  /** the human-readable test number shown as Test # */
  testId: string | null;
  /** the test order's record id (links to /test/{testOrderId}); one case per test order */
  testOrderId: string;
  testRequisitionId: string | null;
  testOrderFormId: string | null;
  accountName: string | null;
  account: IdNameRef | null;
  physician: IdNameRef | null;
  patient: IdNameRef | null;
  testType: TestType | null;
  orderType: OrderType | null;
  timePoint: string | null;
  billingCode: string | null;
  testStatus: TestStatus | null;
  /** changedOn of the test-status event testStatus came from (the consumer skips older events) */
  testStatusChangedOn?: D | null;
  reviewStatus: BillingReviewStatus | null;
  caseStatus: BillingCaseStatus;
  caseQualifiedDate: D | null;
  assignee: IdNameRef | null;
  errorDetails: string | null;
  /** the claim's data from the requisition; null until the requisition's state is known */
  claimInfo?: ClaimInfo | null;
  /** the current submission to the billing system; null until the first Submit */
  submission?: BillingSubmissionFields<D> | null;
}

/** A case history entry on the wire. */
export type CaseHistoryRow = CaseHistoryFields<WireDate>;

/** A billing case as GET /bis/api/v1/billingCases(/{id}) returns it: `id`, the history newest first. */
export interface BillingCaseRow extends BillingCaseFields<WireDate> {
  id: string;
  caseHistory?: CaseHistoryRow[];
}
