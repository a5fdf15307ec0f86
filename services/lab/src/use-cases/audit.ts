/**
 * How the lab's changes read in the audit trail (docs/audit.md "Changes"): a test order, a sample or a report,
 * its patient and its account. Each change and its entry commit in one transaction (platform's
 * AuditTrail.update / create), with the record's own events in the same update, as the requisitions' do.
 */
import { auditTrailOf, type AuditTrail, type ChangeDescription } from '@onco/platform';
import type { LabModels, PendingReportDoc, SampleDoc, TestOrderDoc } from '../models';

/** The audit trail of the connection the lab's models live on (the process's: one trail a connection). */
export const labAuditTrail = (models: Pick<LabModels, 'TestOrder'>): AuditTrail =>
  auditTrailOf({ mongo: models.TestOrder.db });

// a create's own bookkeeping (updatedOn, updatedBy and version are the platform's)
const CREATE_BOOKKEEPING = ['createdOn', 'createdBy'];

/** A test order: its requisition's patient and account (the snapshot `testOrderForm`). */
export const TEST_ORDER_CHANGE: ChangeDescription<TestOrderDoc & Record<string, unknown>> = {
  type: 'test',
  subject: (doc) => ({
    id: doc._id,
    patientId: doc.testOrderForm?.patient?.id ?? null,
    accountIds: [doc.testOrderForm?.account?.id],
  }),
  ignore: CREATE_BOOKKEEPING,
};

/** A sample: its patient and its requisition's account (copies on the sample). */
export const SAMPLE_CHANGE: ChangeDescription<SampleDoc & Record<string, unknown>> = {
  type: 'sample',
  subject: (doc) => ({
    id: doc._id,
    patientId: doc.patient?.id ?? null,
    accountIds: [doc.account?.id],
  }),
  ignore: CREATE_BOOKKEEPING,
};

/**
 * A report file uploaded for a test, not yet attached (a pending upload): the report itself. Its record id is the
 * test order's, as the report download's entry names it (the pending upload has no patient or account of its own).
 */
export const pendingReportChange = (
  testOrder: Pick<TestOrderDoc, '_id' | 'testOrderForm'>,
): ChangeDescription<PendingReportDoc & Record<string, unknown>> => ({
  type: 'report',
  subject: () => TEST_ORDER_CHANGE.subject(testOrder as TestOrderDoc & Record<string, unknown>),
  ignore: CREATE_BOOKKEEPING,
});
