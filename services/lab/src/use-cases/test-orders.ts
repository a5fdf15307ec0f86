import { fieldView, type TestStatus } from '@onco/domain';
import { createEvent, withOutbox, type TestChange } from '@onco/events';
import type { ClientSession } from 'mongoose';
import {
  actorOf,
  conditionalWrite,
  notFound,
  scopeFilter,
  toApi,
  type AuditTrail,
  type SessionUser,
} from '@onco/platform';
import type { ReportVersion, TestHistory, TestOrderDoc } from '../models';

import { inLabTransaction, TEST_ORDER_CHANGE } from './audit';
import type { LabDeps } from './deps';

/**
 * The lab's writes to a test order (spec 2 sections 4, 5, 7 "Test orders"). Every change is ONE conditional
 * update of the test order document: the new state, a test history entry and the `test-status` event in its
 * outbox commit together (the relay publishes it when Kafka is up; nothing is sent for a change that did not
 * commit), in one transaction with its audit entry (use-cases/audit.ts). The update matches the version read: two lab users changing the same test at once never lose a
 * write; the loser re-reads and re-decides (and is refused with a clear message if the rule now refuses).
 */

/** The data scope of test orders: the user's accounts and physicians (lab and billing staff: all). */
export function testOrderScope(user: SessionUser): Record<string, unknown> {
  return scopeFilter(user, { account: 'testOrderForm.account.id', physician: 'testOrderForm.physician.id' });
}

/** One test order in the caller's scope, or 404 (unknown, deleted or out of scope look the same). */
export async function findTestOrder(deps: LabDeps, user: SessionUser, id: string): Promise<TestOrderDoc> {
  const doc = await deps.models.TestOrder.findOne({ _id: id, deleted: false, ...testOrderScope(user) })
    .lean<TestOrderDoc>()
    .exec();
  if (!doc) throw notFound(`Test order ${id} was not found.`);
  return doc;
}

/** What a change does to a test order, decided from its current state (throws an AppError to refuse). */
export interface TestDecision {
  change: TestChange;
  status?: TestStatus;
  dueOn?: Date | null;
  limsProjectId?: string | null;
  /** a report version to append (its status comes with `status`) */
  report?: ReportVersion;
  /** shown in the history: the due date, LIMS project id or report file name */
  detail?: string | null;
}

const day = (d: Date | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : null);

/** The `test-status` event (schemaVersion 2) for a test order after a change. */
export function testStatusEvent(
  after: TestOrderDoc,
  previousStatus: TestStatus | null,
  change: TestChange,
  by: { id: string; name: string },
  at: Date,
) {
  const report = after.reports?.at(-1);
  return createEvent(
    'test-status',
    {
      data: {
        testOrderId: after._id,
        testId: after.testOrderId ?? after._id,
        requisitionId: after.testOrderForm.id,
        testRequisitionId: after.testOrderForm.testRequisitionId ?? after.testOrderForm.id,
        accountId: after.testOrderForm.account?.id ?? 'unknown',
        testType: after.testType,
        orderType: after.orderType,
        previousStatus,
        status: after.status,
        changedBy: by,
        changedOn: at.toISOString(),
        dueOn: day(after.dueOn),
        change,
        limsProjectId: after.limsProjectId ?? null,
        report: report
          ? { id: report.fileId, version: report.version, fileName: report.fileName, amended: report.amended }
          : null,
      },
    },
    { now: () => at },
  );
}

/**
 * A write of another document that commits with a test order's change, in its transaction (`session`), with its
 * own entry (the trail's `updateIn`): the pending report a submit attaches. `written` is the test order after.
 */
export type AlongsideWrite = (
  session: ClientSession,
  trail: AuditTrail,
  written: TestOrderDoc,
) => Promise<unknown>;

/**
 * Write one decided change on the test order as read: state, history entry and test-status event in ONE update
 * conditional on the version read, and `alongside` (when given) in the same transaction. Returns the test order
 * after the change, or null when it changed meanwhile (then nothing is written).
 */
export async function writeDecision(
  deps: LabDeps,
  doc: TestOrderDoc,
  d: TestDecision,
  by: { id: string; name: string },
  at: Date,
  alongside?: AlongsideWrite,
): Promise<TestOrderDoc | null> {
  const status = d.status ?? doc.status;
  const after: TestOrderDoc = {
    ...doc,
    status,
    dueOn: d.dueOn !== undefined ? d.dueOn : doc.dueOn,
    limsProjectId: d.limsProjectId !== undefined ? d.limsProjectId : doc.limsProjectId,
    reports: d.report ? [...(doc.reports ?? []), d.report] : (doc.reports ?? []),
    updatedOn: at,
    updatedBy: by.id,
    version: doc.version + 1,
  };
  const entry: TestHistory = {
    status,
    createdOn: at,
    updatedOn: at,
    testResult: d.report ? { id: d.report.fileId, contentType: d.report.contentType } : null,
    change: d.change,
    by,
    detail: d.detail ?? null,
  };
  const $set: Record<string, unknown> = {
    status,
    dueOn: after.dueOn,
    limsProjectId: after.limsProjectId,
    updatedOn: at,
    updatedBy: by.id,
  };
  if (d.report) {
    $set.testResult = { id: d.report.fileId, contentType: d.report.contentType, path: d.report.fileName };
    $set.report = { path: d.report.fileName };
  }
  // the duration a test took, from ordering to its first report (VIEW_TESTORDER_DURATION), in whole days
  if (d.report && !doc.reports?.length)
    $set.testDuration = Math.max(0, Math.round((+at - +new Date(doc.createdOn)) / 86_400_000));
  const $push: Record<string, unknown> = { testHistories: entry };
  if (d.report) $push.reports = d.report;
  const event = testStatusEvent(after, doc.status, d.change, by, at);
  // the change and its audit entry (who, the test, the fields it changed) commit together (docs/audit.md)
  const res = await inLabTransaction(deps.models, async (session, trail) => {
    const written = await trail.updateIn(
      session,
      deps.models.TestOrder,
      { _id: doc._id, version: doc.version, deleted: false },
      withOutbox({ $set, $push, $inc: { version: 1 } }, event),
      TEST_ORDER_CHANGE,
      // the test order as read and decided on: the filter is conditional on its version (one read less)
      { before: doc as TestOrderDoc & Record<string, unknown> },
    );
    if (written && alongside) await alongside(session, trail, written as TestOrderDoc);
    return written;
  });
  return res ? { ...after, testHistories: [...doc.testHistories, entry] } : null;
}

const ATTEMPTS = 5;

/**
 * Apply one decided change to one test order: read (in scope), decide, write conditionally on the version
 * read (with `alongside` in its transaction); on a lost race read again and decide again. Returns the test order
 * after the change.
 */
export async function changeTestOrder(
  deps: LabDeps,
  user: SessionUser,
  id: string,
  decide: (doc: TestOrderDoc) => TestDecision,
  now: () => Date = () => new Date(),
  alongside?: AlongsideWrite,
): Promise<TestOrderDoc> {
  return conditionalWrite(
    async () => {
      const doc = await findTestOrder(deps, user, id);
      return writeDecision(deps, doc, decide(doc), actorOf(user), now(), alongside);
    },
    {
      attempts: ATTEMPTS,
      message: 'The test was changed by someone else at the same time. Reload it and try again.',
    },
  );
}

/**
 * The API shape of a test order for one user: `id`, histories newest first as the Test History table reads
 * them, and without the fields (and history entries) the user's permissions withhold (`fieldView`).
 */
export function testOrderOut(doc: TestOrderDoc, user: SessionUser) {
  const out = toApi(doc);
  return fieldView(user.grantedAuthorities).testOrder({
    ...out,
    dueOn: doc.dueOn ? day(doc.dueOn) : null,
    reports: (doc.reports ?? []).map(({ fileId: _f, ...r }) => r),
  });
}
