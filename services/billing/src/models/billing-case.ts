import { Schema, type Connection, type Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  BILLING_CASE_STATUSES,
  BILLING_REVIEW_STATUSES,
  ORDER_TYPES,
  TEST_STATUSES,
  TEST_TYPES,
  type BillingCaseStatus,
  type BillingReviewStatus,
  type OrderType,
  type RequisitionBillingSummary,
  type TestStatus,
  type TestType,
} from '@onco/domain';
import { billingSummarySchema } from './billing-requisition';
import { outboxEntrySchemaDefinition, outboxEntrySchemaOptions, type OutboxEntry } from '@onco/events';

/**
 * A billing case (spec 3 section 3 "Billing case", states in section 4.3): one per billed test order, created by
 * the billing service's consumer of test-status events and submitted to XIFIN. Collection `billing_cases`.
 */
const sub = (def: Record<string, unknown>) => new Schema(def, { _id: false, minimize: false });
const str = { type: String, default: null } as const;
const idName = () => sub({ id: str, name: str });
const outboxField = () => ({
  type: [new Schema(outboxEntrySchemaDefinition, { ...outboxEntrySchemaOptions, minimize: false })],
  default: [],
});

/** A field a person changed on a case, as its history entry records it (beyond the spec's entry fields). */
export const CASE_CHANGE_FIELDS = ['billingCode', 'timePoint', 'assignee'] as const;
export type CaseChangeField = (typeof CASE_CHANGE_FIELDS)[number];
export interface CaseChange {
  field: CaseChangeField;
  /** the value before and after (the assignee by name); null when there was none */
  from: string | null;
  to: string | null;
}

export interface CaseHistoryEntry {
  id: string;
  createdOn: Date;
  status: BillingCaseStatus;
  errorDetails: string | null;
  /** who made the change: a user's name, or `system` (the worker, the consumers); absent on older entries */
  by?: string | null;
  /** the user's id (`system` for the worker and the consumers): names are not unique */
  byId?: string | null;
  /** what else the change set (billing code, timepoint, assignee); absent or empty when only the status moved */
  changes?: CaseChange[];
}

export interface BillingCaseDoc {
  _id: string;
  /** the human-readable test number shown as Test # */
  testId: string | null;
  /** the test order's record id (links to /test/{testOrderId}); one case per test order */
  testOrderId: string;
  testRequisitionId: string | null;
  testOrderFormId: string | null;
  accountName: string | null;
  account: { id: string | null; name: string | null } | null;
  physician: { id: string | null; name: string | null } | null;
  patient: { id: string | null; name: string | null } | null;
  testType: TestType | null;
  orderType: OrderType | null;
  timePoint: string | null;
  billingCode: string | null;
  testStatus: TestStatus | null;
  /** changedOn of the test-status event testStatus came from (the consumer skips older events) */
  testStatusChangedOn?: Date | null;
  reviewStatus: BillingReviewStatus | null;
  caseStatus: BillingCaseStatus;
  caseQualifiedDate: Date | null;
  assignee: { id: string | null; name: string | null } | null;
  errorDetails: string | null;
  caseHistory: CaseHistoryEntry[];
  /**
   * What the claim is checked with and carries from the requisition (its billing summary and ICD-10 codes, events
   * of schemaVersion 4); null until the requisition's state is known
   */
  claimInfo?: ClaimInfo | null;
  /** the current submission to the billing system (submission/queue.ts); null until the first Submit */
  submission?: BillingSubmission | null;
  outbox: OutboxEntry[];
  createdOn: Date;
  createdBy: string | null;
  updatedOn: Date;
  updatedBy: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
}

export interface ClaimInfo extends RequisitionBillingSummary {
  /** null: the requisition's events did not carry them (older than schemaVersion 4) */
  diagnosisCodes: string[] | null;
}

/**
 * The current submission of a case to the billing system (services/billing/src/submission/): each Submit starts
 * a new `generation`; the claim's idempotency key and the BullMQ job id are the case id plus the generation, so a
 * re-run job never sends a second claim and a stale job (an older generation) stops. `attempts` counts the sends
 * of this generation, `lastError` the last transient failure (timeout, network, 5xx, payor down).
 */
export interface BillingSubmission {
  generation: number;
  attempts: number;
  lastError: string | null;
  /** when Submit queued this generation (also the claim's submittedOn, so a re-sent claim is the same claim) */
  queuedOn: Date | null;
  queuedBy: string | null;
}

const caseChangeSchema = sub({
  field: { type: String, enum: CASE_CHANGE_FIELDS, required: true },
  from: str,
  to: str,
});
const caseHistorySchema = sub({
  id: { type: String, required: true },
  createdOn: { type: Date, default: () => new Date() },
  status: { type: String, enum: BILLING_CASE_STATUSES, required: true },
  errorDetails: str,
  by: str,
  byId: str,
  changes: { type: [caseChangeSchema], default: undefined },
});

export const billingCaseSchema = auditedSchema(
  {
    testId: str,
    testOrderId: { type: String, required: true },
    testRequisitionId: str,
    testOrderFormId: str,
    accountName: str,
    account: { type: idName(), default: null },
    physician: { type: idName(), default: null },
    patient: { type: idName(), default: null },
    testType: { type: String, enum: TEST_TYPES, default: null },
    orderType: { type: String, enum: ORDER_TYPES, default: null },
    timePoint: str,
    billingCode: str,
    testStatus: { type: String, enum: TEST_STATUSES, default: null },
    testStatusChangedOn: { type: Date, default: null },
    reviewStatus: { type: String, enum: BILLING_REVIEW_STATUSES, default: null },
    caseStatus: { type: String, enum: BILLING_CASE_STATUSES, default: 'NOT_SUBMITTED', required: true },
    caseQualifiedDate: { type: Date, default: null },
    assignee: { type: idName(), default: null },
    errorDetails: str,
    caseHistory: { type: [caseHistorySchema], default: [] },
    claimInfo: {
      type: new Schema(
        { ...billingSummarySchema().obj, diagnosisCodes: { type: [String], default: null } },
        { _id: false },
      ),
      default: null,
    },
    // the current submission (BillingSubmission above); null until the first Submit
    submission: {
      type: sub({
        generation: { type: Number, default: 0 },
        attempts: { type: Number, default: 0 },
        lastError: str,
        queuedOn: { type: Date, default: null },
        queuedBy: str,
      }),
      default: null,
    },
    outbox: outboxField(),
  },
  { collection: 'billing_cases' },
);

// billing list: default sort updatedOn DESC
billingCaseSchema.index({ updatedOn: -1 });
// the list's newest-first pages once it is large: read in index order (@onco/platform ordered-indexes.ts)
declareOrderedIndex('billing_cases', { updatedOn: -1, _id: -1 });
// billing list: Test Type filter and test_type_facet
billingCaseSchema.index({ testType: 1 });
// billing list: Test Status filter and test_status_facet
billingCaseSchema.index({ testStatus: 1 });
// billing list: Billing Review Status filter and review_status_facet
billingCaseSchema.index({ reviewStatus: 1 });
// billing list: Billing Status filter and case_status_facet (also the retry scheduler's RETRY_SCHEDULED scan)
billingCaseSchema.index({ caseStatus: 1, updatedOn: -1 });
// billing list: Assignee filter and assignee_name_facet
billingCaseSchema.index({ 'assignee.name': 1 });
// billing list: accountId filter and the data scope
billingCaseSchema.index({ 'account.id': 1 });
// billing list: physicianId filter and the data scope
billingCaseSchema.index({ 'physician.id': 1 });
// the consumer's upsert: one case per test order (always set, so a plain unique index)
billingCaseSchema.index({ testOrderId: 1 }, { unique: true });
// the outbox relay's scan for pending events, { 'outbox.0': { $exists: true } } sorted by the oldest entry
// (events/src/outbox.ts): sparse, so it holds only the cases with events waiting. Without it every relay pass reads
// the whole collection (10,000 cases: ~15-85 ms a pass, and a submission burst nudges a pass per claim). DocumentDB
// 0.106 uses this index for that filter; it ignores the partial index on 'outbox.0.createdOn' outbox.ts suggests.
billingCaseSchema.index({ 'outbox.0': 1 }, { sparse: true });

export function billingCaseModel(conn: Connection): Model<BillingCaseDoc> {
  return (
    (conn.models.BillingCase as Model<BillingCaseDoc>) ??
    conn.model<BillingCaseDoc>('BillingCase', billingCaseSchema)
  );
}
