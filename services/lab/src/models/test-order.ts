import type { Connection, Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  CLINICAL_REVIEW_STATUSES,
  ORDER_TYPES,
  TEST_STATUSES,
  TEST_TYPES,
  type ReportVersionFields,
  TEST_CHANGES,
  type TestHistoryFields,
  type TestOrderFields,
} from '@onco/domain';
import type { OutboxEntry } from '@onco/events';
import { idName, outboxField, str, sub } from './common';

/** A test history entry as stored (@onco/domain's TestHistoryFields with Date). */
export type TestHistory = TestHistoryFields<Date>;

/** One uploaded report of a test as stored (@onco/domain's ReportVersionFields with Date). */
export type ReportVersion = ReportVersionFields<Date>;

/**
 * A test order (spec 1 and 2 section 3 "Test order"): one test of a requisition, owned by the lab service,
 * created by its requisition-submitted consumer (deterministic ids). `testOrderForm` is a snapshot of the
 * requisition fields the tests list shows and scopes by. Collection `test_orders`. Stored: the wire shape
 * (@onco/domain's TestOrderFields) with Date, `_id` and the outbox.
 */
export interface TestOrderDoc extends TestOrderFields<Date> {
  _id: string;
  testHistories: TestHistory[];
  /** every report uploaded for this test, oldest first (the last is the current one) */
  reports: ReportVersion[];
  outbox: OutboxEntry[];
}

const testResultSchema = () => sub({ id: str, contentType: str });

const testHistorySchema = sub({
  status: { type: String, enum: TEST_STATUSES, required: true },
  createdOn: { type: Date, default: () => new Date() },
  updatedOn: { type: Date, default: null },
  testResult: { type: testResultSchema(), default: null },
  change: { type: String, enum: [...TEST_CHANGES, null], default: null },
  by: { type: idName(), default: null },
  detail: str,
});

const reportVersionSchema = sub({
  version: { type: Number, required: true },
  fileId: { type: String, required: true },
  fileName: { type: String, required: true },
  contentType: { type: String, required: true },
  size: { type: Number, required: true },
  amended: { type: Boolean, default: false },
  tnp: { type: Boolean, default: false },
  uploadedOn: { type: Date, required: true },
  uploadedBy: { type: idName(), required: true },
});

export const testOrderSchema = auditedSchema(
  {
    /** human-readable test number */
    testOrderId: str,
    testId: str,
    testType: { type: String, enum: TEST_TYPES, required: true },
    orderType: { type: String, enum: ORDER_TYPES, required: true },
    status: { type: String, enum: TEST_STATUSES, default: 'TEST_SELECTED', required: true },
    dueOn: { type: Date, default: null },
    testDuration: { type: Number, default: null },
    limsProjectId: str,
    testHistories: { type: [testHistorySchema], default: [] },
    testResult: { type: sub({ id: str, contentType: str, path: str }), default: null },
    report: { type: sub({ path: str }), default: null },
    reports: { type: [reportVersionSchema], default: [] },
    testOrderForm: {
      type: sub({
        id: { type: String, required: true },
        testRequisitionId: str,
        account: { type: idName(), default: null },
        physician: { type: idName(), default: null },
        hospitalLocation: { type: idName(), default: null },
        patient: { type: sub({ id: str, name: str, userId: str }), default: null },
        reviewStatus: { type: String, enum: CLINICAL_REVIEW_STATUSES, default: null },
        diagnosis: str,
        requisitionVersion: { type: Number, default: null },
      }),
      required: true,
    },
    outbox: outboxField(),
  },
  { collection: 'test_orders' },
);

// tests list: status filter (the default !in(TEST_SELECTED), dashboard per-status counts) with the default sort updatedOn DESC
testOrderSchema.index({ status: 1, updatedOn: -1 });
// tests list: default sort updatedOn DESC without a status filter
testOrderSchema.index({ updatedOn: -1 });
// the list's newest-first pages once the list is large (its counts kept): read in index order, on the local store
// through DocumentDB's extended RUM (built by the ordered-index login: @onco/platform ordered-indexes.ts)
declareOrderedIndex('test_orders', { updatedOn: -1, _id: -1 });
// tests list: data scope and the account filter
testOrderSchema.index({ 'testOrderForm.account.id': 1 });
// tests list: data scope and the physician filter
testOrderSchema.index({ 'testOrderForm.physician.id': 1 });
// tests list: Test filter and test_type_facet
testOrderSchema.index({ testType: 1 });
// tests list: Order filter and order_type_facet
testOrderSchema.index({ orderType: 1 });
// a requisition's tests (order summary, soft delete of the form's tests, the consumer's lookups)
testOrderSchema.index({ 'testOrderForm.id': 1 });
// patient detail: the patient's tests (and the most recent NeXT Personal Dx order)
testOrderSchema.index({ 'testOrderForm.patient.id': 1 });
// test number lookup and search; plain, not unique: the number is assigned by the lab and may be null at first
testOrderSchema.index({ testOrderId: 1 });
// sample manifests: a row names its requisition by TRF # (manifests/plan-requisitions.ts, `testRequisitionId $in`)
testOrderSchema.index({ 'testOrderForm.testRequisitionId': 1 });

export function testOrderModel(conn: Connection): Model<TestOrderDoc> {
  return (
    (conn.models.TestOrder as Model<TestOrderDoc>) ?? conn.model<TestOrderDoc>('TestOrder', testOrderSchema)
  );
}
