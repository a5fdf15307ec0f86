/**
 * How the lab's changes read in the audit trail (docs/audit.md "Changes"): a test order, a sample, a sample group
 * or a report, its patient and its account. Each change and its entry commit in one transaction (platform's
 * AuditTrail.update / create, or inLabTransaction for several documents), with the record's own events in the same
 * update, as the requisitions' do.
 */
import type { ClientSession } from 'mongoose';
import {
  auditTrailOf,
  changeInputOf,
  inTransaction,
  type AuditInput,
  type AuditTrail,
  type ChangeDescription,
} from '@onco/platform';
import type { LabModels, PendingReportDoc, SampleDoc, SampleGroupDoc, TestOrderDoc } from '../models';

/** The audit trail of the connection the lab's models live on (the process's: one trail a connection). */
export const labAuditTrail = (models: Pick<LabModels, 'TestOrder'>): AuditTrail =>
  auditTrailOf({ mongo: models.TestOrder.db });

/**
 * Several lab documents changed with their entries in ONE transaction (a test order and the pending report its
 * submit attaches, a sample and its sample groups): `fn` writes through `session` and records with the trail's
 * `updateIn` / `createIn` / `recordIn`. When an entry cannot be written everything is rolled back (503
 * AUDIT_UNAVAILABLE); a write conflict runs `fn` again, so it keeps no other side effects. This process's chainer
 * is told once the transaction has committed.
 */
export async function inLabTransaction<T>(
  models: Pick<LabModels, 'TestOrder'>,
  fn: (session: ClientSession, trail: AuditTrail) => Promise<T>,
): Promise<T> {
  const trail = labAuditTrail(models);
  const res = await inTransaction(trail.conn, (session) => fn(session, trail));
  trail.recorded();
  return res;
}

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

/** The test order a report belongs to (its requisition snapshot unknown when the test order is gone). */
type ReportTestOrder = Pick<TestOrderDoc, '_id'> & Partial<Pick<TestOrderDoc, 'testOrderForm'>>;

/**
 * A report file uploaded for a test, not yet attached (a pending upload): the report itself. Its record id is the
 * test order's, as the report download's entry names it (the pending upload has no patient or account of its own).
 */
export const pendingReportChange = (
  testOrder: ReportTestOrder,
): ChangeDescription<PendingReportDoc & Record<string, unknown>> => ({
  type: 'report',
  subject: () => TEST_ORDER_CHANGE.subject(testOrder as TestOrderDoc & Record<string, unknown>),
  ignore: CREATE_BOOKKEEPING,
});

/**
 * A pending upload removed by the sweep (expired): a `delete` of the report, naming the fields the record held (as
 * its create named them), never their values.
 */
export const removedReportEntry = (testOrder: ReportTestOrder, removed: PendingReportDoc): AuditInput => ({
  ...changeInputOf(
    pendingReportChange(testOrder),
    null,
    removed as PendingReportDoc & Record<string, unknown>,
  ),
  action: 'delete',
});

/**
 * A sample group (a derived index of the samples processed together), changed by `samples` joining or leaving it:
 * their patient when they share one (a group has no patient of its own, null otherwise) and their accounts.
 */
export const sampleGroupChange = (
  samples: Array<Pick<SampleDoc, 'patient' | 'account'>>,
): ChangeDescription<SampleGroupDoc & Record<string, unknown>> => {
  const patients = [...new Set(samples.map((s) => s.patient?.id).filter((id): id is string => !!id))];
  return {
    type: 'sample-group',
    subject: (doc) => ({
      id: doc._id,
      patientId: patients.length === 1 ? patients[0] : null,
      accountIds: samples.map((s) => s.account?.id),
    }),
    ignore: CREATE_BOOKKEEPING,
  };
};
