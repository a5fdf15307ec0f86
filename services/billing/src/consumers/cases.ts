import { randomUUID } from 'node:crypto';
import {
  isEventOf,
  outboxForInsert,
  runConsumer,
  withPrefix,
  type AnyEvent,
  type EventEnvelope,
  type TestStatusData,
} from '@onco/events';
import { cancelledCaseStatus, qualification } from '@onco/domain';
import {
  auditTrailOf,
  changeInputOf,
  inTransaction,
  newRecordAudit,
  SYSTEM_ACTOR as AUDIT_SYSTEM_ACTOR,
  type PlatformContext,
} from '@onco/platform';
import {
  BILLING_CASE_CHANGE,
  billingCaseEvent,
  changeCase,
  historyEntry,
  SYSTEM_ACTOR,
  type CaseDecision,
} from '../use-cases';
import type { BillingCaseDoc, BillingModels, BillingRequisitionDoc } from '../models';

/** The billing service's consumer group (prefixed with TOPIC_PREFIX like the topics). */
export const BILLING_CASES_GROUP = 'billing.cases';

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** What a consumed event tells about one case. */
export interface CaseInputs {
  /** a test-status event of the case's test order */
  test?: TestStatusData;
  /** the requisition's latest recorded state (null: not known yet) */
  requisition?: BillingRequisitionDoc | null;
}

const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);
  return JSON.stringify(norm(a), (_k, v) => norm(v)) === JSON.stringify(norm(b), (_k, v) => norm(v));
};

/**
 * The decision for a case from what the events say (pure; `now` passed in):
 * - a test-status event newer than the one the case has (by changedOn; an equal one re-applies the same
 *   values) sets the test fields; an older one is skipped;
 * - the requisition's state sets the parties, names, TRF number and the billing review status;
 * - a cancelled or merged test, or a deleted requisition, cancels the case (domain: cancelledCaseStatus);
 * - otherwise the case is (de)qualified (domain: qualification).
 * A decision that changes nothing is a noop: no write and no event.
 */
export function decideCase(doc: BillingCaseDoc, inputs: CaseInputs, now: Date): CaseDecision {
  const set: Record<string, unknown> = {};
  let cancel = false;
  const t = inputs.test;
  if (t) {
    const changedOn = new Date(t.changedOn);
    const known = doc.testStatusChangedOn ? new Date(doc.testStatusChangedOn) : null;
    if (!known || changedOn >= known) {
      Object.assign(set, {
        testId: t.testId,
        testType: t.testType,
        orderType: t.orderType,
        testStatus: t.status,
        testStatusChangedOn: changedOn,
      });
      if (t.status === 'CANCELLED' || t.change === 'merged') cancel = true;
    }
    if (!doc.testOrderFormId) set.testOrderFormId = t.requisitionId;
    if (!doc.testRequisitionId) set.testRequisitionId = t.testRequisitionId;
    if (!doc.account?.id) set.account = { id: t.accountId, name: doc.account?.name ?? null };
  }
  const r = inputs.requisition;
  if (r) {
    Object.assign(set, {
      testRequisitionId: r.testRequisitionId ?? doc.testRequisitionId,
      accountName: r.account?.name ?? null,
      account: r.account ?? doc.account,
      physician: r.physician ?? doc.physician,
      patient: r.patient ?? doc.patient,
      reviewStatus: r.billingReviewStatus ?? null,
    });
    // what the claim is checked with; kept as it was when the requisition's events did not carry it
    if (r.billing || r.icd10Codes)
      set.claimInfo = {
        billingType: r.billing?.billingType ?? null,
        payorId: r.billing?.payorId ?? null,
        payorName: r.billing?.payorName ?? null,
        patientAddressComplete: r.billing?.patientAddressComplete ?? false,
        ...(r.billing?.medicareDataMissing ? { medicareDataMissing: r.billing.medicareDataMissing } : {}),
        diagnosisCodes: r.icd10Codes ?? null,
      };
    if (r.deleted) cancel = true;
  }
  const next = { ...doc, ...set } as BillingCaseDoc;
  if (cancel) {
    const status = cancelledCaseStatus(doc.caseStatus);
    if (status) set.caseStatus = status;
  } else {
    Object.assign(set, qualification(next, now));
  }
  for (const k of Object.keys(set))
    if (same(set[k], (doc as unknown as Record<string, unknown>)[k])) delete set[k];
  // a test change that leaves the case as it was (a due date, a LIMS project #) is no billing change: no write,
  // no billing-case event (the events of one test arrive in order on its partition)
  const keys = Object.keys(set);
  if (keys.length === 1 && keys[0] === 'testStatusChangedOn') return { noop: true };
  return keys.length ? { set } : { noop: true };
}

/** The case of a test order, read for a change (the consumer is the system: no data scope). */
async function readCase(models: BillingModels, testOrderId: string): Promise<BillingCaseDoc> {
  const doc = await models.BillingCase.findOne({ testOrderId }).lean<BillingCaseDoc>().exec();
  if (!doc) throw new Error(`billing case of test order ${testOrderId} not found`);
  return doc;
}

/**
 * Open the case of a test order if it has none: ONE insert carrying the case as the events make it (test fields,
 * the requisition's recorded state, qualification), its first history entry and its billing-case event. The
 * unique index on testOrderId makes a redelivered or concurrent event a duplicate key: nothing new, no event.
 * The insert commits with its audit entry (`create` by `system`) in one transaction: a duplicate records nothing.
 * Returns whether it created the case.
 */
export async function openCase(
  models: BillingModels,
  test: TestStatusData,
  now: Date = new Date(),
): Promise<boolean> {
  if (await models.BillingCase.exists({ testOrderId: test.testOrderId })) return false;
  const requisition = await models.BillingRequisition.findById(test.requisitionId)
    .lean<BillingRequisitionDoc>()
    .exec();
  const blank = {
    _id: randomUUID(),
    testOrderId: test.testOrderId,
    testId: null,
    testRequisitionId: null,
    testOrderFormId: test.requisitionId,
    accountName: null,
    account: null,
    physician: null,
    patient: null,
    testType: null,
    orderType: null,
    timePoint: null,
    billingCode: null,
    testStatus: null,
    testStatusChangedOn: null,
    reviewStatus: null,
    caseStatus: 'NOT_SUBMITTED',
    caseQualifiedDate: null,
    assignee: null,
    errorDetails: null,
    caseHistory: [],
    outbox: [],
    ...newRecordAudit(SYSTEM_ACTOR.id, now),
  } as BillingCaseDoc;
  const d = decideCase(blank, { test, requisition }, now);
  const doc = { ...blank, ...(d.set ?? {}) } as BillingCaseDoc;
  doc.caseHistory = [historyEntry(doc.caseStatus, null, now, SYSTEM_ACTOR)];
  doc.outbox = outboxForInsert(billingCaseEvent(doc, null, SYSTEM_ACTOR, now));
  const conn = models.BillingCase.db;
  const trail = auditTrailOf({ mongo: conn });
  try {
    // the case and its audit entry (`create` by `system`, the fields it set) in one transaction
    await inTransaction(conn, async (session) => {
      await models.BillingCase.create([doc], { session });
      await trail.recordIn(
        session,
        [changeInputOf(BILLING_CASE_CHANGE, null, doc as BillingCaseDoc & Record<string, unknown>)],
        AUDIT_SYSTEM_ACTOR,
      );
    });
    trail.recorded();
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** A test-status event: the case opened (first event of the test order) or brought up to date. */
export async function applyTestStatusToCase(
  models: BillingModels,
  event: EventEnvelope<'test-status'>,
): Promise<'created' | 'changed' | 'unchanged'> {
  if (await openCase(models, event.data)) {
    // a requisition state recorded by another process between the read and the insert: applied now
    await applyRequisitionToCase(models, event.data.requisitionId, event.data.testOrderId);
    return 'created';
  }
  const before = await readCase(models, event.data.testOrderId);
  const after = await changeCase(
    { models },
    () => readCase(models, event.data.testOrderId),
    (doc) => decideCase(doc, { test: event.data }, new Date()),
    SYSTEM_ACTOR,
  );
  return after.version === before.version ? 'unchanged' : 'changed';
}

/** requisition-submitted: the parties as submitted, unless a newer requisition-changed state is recorded. */
export async function recordSubmission(models: BillingModels, event: EventEnvelope<'requisition-submitted'>) {
  const d = event.data;
  try {
    await models.BillingRequisition.updateOne(
      { _id: d.requisitionId },
      {
        $setOnInsert: {
          version: -1,
          testRequisitionId: d.testRequisitionId,
          account: { id: d.accountId, name: d.accountName ?? null },
          physician: { id: d.physicianId, name: d.physicianName ?? null },
          patient: { id: d.patientId, name: d.patientName ?? null },
          // decision: not on requisition-submitted; a case's reviewStatus is null until the first change
          billingReviewStatus: null,
          // schemaVersion 4 (absent before: null, and the claim checks say so)
          billing: d.billing ?? null,
          icd10Codes: d.icd10Codes,
          deleted: false,
          changedOn: new Date(d.submittedOn),
        },
      },
      { upsert: true },
    ).exec();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}

/** requisition-changed: the newest state (by requisitionVersion) recorded; an older or equal one is ignored. */
export async function recordRequisitionChange(
  models: BillingModels,
  event: EventEnvelope<'requisition-changed'>,
) {
  const d = event.data;
  const set: Record<string, unknown> = {
    version: d.requisitionVersion,
    testRequisitionId: d.testRequisitionId,
    account: { id: d.accountId, name: d.accountName ?? null },
    physician: { id: d.physicianId, name: d.physicianName ?? null },
    patient: { id: d.patientId, name: d.patientName ?? null },
    deleted: d.deleted,
    changedOn: new Date(d.changedOn),
  };
  // absent before schemaVersion 3: keep what is known
  if (d.billingReviewStatus !== undefined) set.billingReviewStatus = d.billingReviewStatus;
  // absent before schemaVersion 4: keep what the submission said
  if (d.billing !== undefined) set.billing = d.billing;
  if (d.icd10Codes !== undefined) set.icd10Codes = d.icd10Codes;
  try {
    await models.BillingRequisition.updateOne(
      { _id: d.requisitionId, version: { $lt: d.requisitionVersion } },
      { $set: set },
      { upsert: true },
    ).exec();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err; // a newer state is recorded already
  }
}

/** The recorded state of a requisition applied to one case (noop where nothing changes). */
async function applyRequisitionToCase(
  models: BillingModels,
  requisitionId: string,
  testOrderId: string,
): Promise<boolean> {
  const requisition = await models.BillingRequisition.findById(requisitionId)
    .lean<BillingRequisitionDoc>()
    .exec();
  if (!requisition) return false;
  const before = await readCase(models, testOrderId);
  const after = await changeCase(
    { models },
    () => readCase(models, testOrderId),
    (doc) => decideCase(doc, { requisition }, new Date()),
    SYSTEM_ACTOR,
  );
  return after.version !== before.version;
}

/** The recorded state of a requisition applied to each of its cases (noop where nothing changes). */
export async function applyRequisitionToCases(models: BillingModels, requisitionId: string): Promise<number> {
  const requisition = await models.BillingRequisition.findById(requisitionId)
    .lean<BillingRequisitionDoc>()
    .exec();
  if (!requisition) return 0;
  const cases = await models.BillingCase.find(
    { testOrderFormId: requisitionId },
    { testOrderId: 1, version: 1 },
  )
    .lean<Pick<BillingCaseDoc, 'testOrderId' | 'version'>[]>()
    .exec();
  let changed = 0;
  for (const c of cases) {
    const after = await changeCase(
      { models },
      () => readCase(models, c.testOrderId),
      (doc) => decideCase(doc, { requisition }, new Date()),
      SYSTEM_ACTOR,
    );
    if (after.version !== c.version) changed++;
  }
  return changed;
}

/** The handler of the billing cases consumer (exported for tests that redeliver an event by hand). */
export async function handleCaseEvent(models: BillingModels, event: AnyEvent): Promise<boolean> {
  if (isEventOf(event, 'test-status')) {
    return (await applyTestStatusToCase(models, event)) !== 'unchanged';
  }
  if (isEventOf(event, 'requisition-submitted')) {
    await recordSubmission(models, event);
    return (await applyRequisitionToCases(models, event.data.requisitionId)) > 0;
  }
  if (isEventOf(event, 'requisition-changed')) {
    await recordRequisitionChange(models, event);
    return (await applyRequisitionToCases(models, event.data.requisitionId)) > 0;
  }
  return false;
}

/**
 * Start the billing consumer: test-status opens and updates cases, requisition-submitted and
 * requisition-changed record the requisition's state and apply it to its cases (order-independent).
 */
export async function startBillingConsumers(ctx: PlatformContext, models: BillingModels) {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(BILLING_CASES_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['test-status', 'requisition-submitted', 'requisition-changed'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event: AnyEvent) => {
      if (await handleCaseEvent(models, event)) ctx.nudgeOutbox();
    },
  });
  return { stop: () => consumer.stop() };
}
