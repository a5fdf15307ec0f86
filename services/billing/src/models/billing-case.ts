import { Schema, type Connection, type Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  BILLING_CASE_STATUSES,
  BILLING_REVIEW_STATUSES,
  CASE_CHANGE_FIELDS,
  ORDER_TYPES,
  TEST_STATUSES,
  TEST_TYPES,
  CLAIM_DOCUMENT_KINDS,
  type BillingCaseFields,
  type ClaimDocumentKind,
  type BillingSubmissionFields,
  type CaseHistoryFields,
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

export { CASE_CHANGE_FIELDS, type CaseChange, type CaseChangeField, type ClaimInfo } from '@onco/domain';

/** A case history entry as stored (the wire shape, @onco/domain's CaseHistoryRow, with Date). */
export type CaseHistoryEntry = CaseHistoryFields<Date>;

/** The current submission of a case to the billing system (@onco/domain's BillingSubmissionFields). */
export type BillingSubmission = BillingSubmissionFields<Date>;

/** One document the billing system took for the case's claim (its Idempotency-Key and the system's id). */
export interface ClaimDocumentUpload {
  kind: ClaimDocumentKind;
  fileId: string;
  fileName: string;
  key: string;
  documentId: string | null;
  uploadedOn: Date;
}

/** The documents of the case's current claim: its generation, the round (one more each Upload again), the uploads. */
export interface ClaimDocumentsState {
  generation: number;
  round: number;
  uploads: ClaimDocumentUpload[];
}

/** A stored billing case: the wire shape (@onco/domain's BillingCaseFields) with Date, `_id` and the outbox. */
export interface BillingCaseDoc extends BillingCaseFields<Date> {
  _id: string;
  caseHistory: CaseHistoryEntry[];
  outbox: OutboxEntry[];
  /** the billing system's status-feed entries applied to the case (submission/status-feed.ts); absent before one */
  feedEntryIds?: string[];
  /** the claim's documents uploaded to the billing system (submission/documents-job.ts); absent before any round */
  documents?: ClaimDocumentsState | null;
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
  reason: str,
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
    // the ids of the status-feed entries applied (submission/apply-feed-entry.ts: each one once, in its write)
    feedEntryIds: { type: [String], default: undefined },
    documents: {
      type: sub({
        generation: { type: Number, required: true },
        round: { type: Number, default: 0 },
        uploads: {
          type: [
            sub({
              kind: { type: String, enum: CLAIM_DOCUMENT_KINDS, required: true },
              fileId: { type: String, required: true },
              fileName: str,
              key: { type: String, required: true },
              documentId: str,
              uploadedOn: { type: Date, required: true },
            }),
          ],
          default: [],
        },
      }),
      default: undefined,
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
