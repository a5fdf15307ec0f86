import {
  createEvent,
  isEventOf,
  outboxForInsert,
  runConsumer,
  withPrefix,
  type AnyEvent,
  type EventEnvelope,
} from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { LabModels, TestOrderDoc } from '../models';
import { applyRequisitionState } from './requisition-changed';
import { labAuditTrail, TEST_ORDER_CHANGE } from '../use-cases/audit';

/** The lab's consumer group for requisition-submitted (prefixed like the topics: one group per environment). */
export const LAB_REQUISITION_GROUP = 'lab.requisition-submitted';

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/**
 * Create the test orders of a submitted requisition (design.md: the lab owns test orders).
 *
 * Each test order is ONE insert whose `_id` is the event's test order id, carrying its `test-status` event in
 * the same document's outbox: the order and its event commit together, and a redelivered event (or a retry
 * after a crash before the consumer's marker) hits the existing `_id` (a duplicate key) and
 * creates nothing and emits nothing. Each insert commits with its audit entry (the system creating the test) in
 * one transaction. Returns the ids it created.
 */
export async function createTestOrdersFromSubmission(
  models: LabModels,
  event: EventEnvelope<'requisition-submitted'>,
): Promise<string[]> {
  const d = event.data;
  const at = new Date(d.submittedOn);
  const created: string[] = [];
  for (const t of d.testOrders) {
    const statusEvent = createEvent(
      'test-status',
      {
        traceId: event.traceId,
        data: {
          testOrderId: t.id,
          testId: t.testOrderId,
          requisitionId: d.requisitionId,
          testRequisitionId: d.testRequisitionId,
          accountId: d.accountId,
          testType: t.testType,
          orderType: t.orderType,
          previousStatus: null,
          status: t.status,
          changedBy: d.submittedBy,
          changedOn: d.submittedOn,
          dueOn: null,
          change: 'created',
          limsProjectId: null,
          report: null,
        },
      },
      { now: () => at },
    );
    const doc: Partial<TestOrderDoc> = {
      _id: t.id,
      testOrderId: t.testOrderId,
      testType: t.testType,
      orderType: t.orderType,
      status: t.status,
      // the timeline marks a step done when its latest entry has an updatedOn
      testHistories: [
        {
          status: t.status,
          createdOn: at,
          updatedOn: at,
          testResult: null,
          // who ordered it (the Test History's By column; the later entries carry who changed them)
          change: 'created',
          by: { id: d.submittedBy.id, name: d.submittedBy.name },
        },
      ],
      testOrderForm: {
        id: d.requisitionId,
        testRequisitionId: d.testRequisitionId,
        // ids for the data scope and the filters; the names the lists show from schemaVersion 2 (null before)
        account: { id: d.accountId, name: d.accountName ?? null },
        physician: { id: d.physicianId, name: d.physicianName ?? null },
        hospitalLocation: d.hospitalLocationId
          ? { id: d.hospitalLocationId, name: d.hospitalLocationName ?? null }
          : null,
        patient: { id: d.patientId, name: d.patientName ?? null, userId: d.patientNumber ?? null },
        reviewStatus: d.clinicalReviewStatus,
        // the sample rules' diagnosis: carried from schemaVersion 3 (null in older events)
        diagnosis: d.diagnosis ?? null,
        requisitionVersion: null,
      },
      createdOn: at,
      createdBy: d.submittedBy.id,
      updatedOn: at,
      updatedBy: d.submittedBy.id,
      outbox: outboxForInsert(statusEvent),
    };
    try {
      // with its audit entry (the system, on the requisition's account) in one transaction
      await labAuditTrail(models).create(models.TestOrder, doc, TEST_ORDER_CHANGE);
      created.push(t.id);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }
  return created;
}

/**
 * Start the requisition-submitted consumer: the test orders (+ their test-status events), then the requisition's
 * latest changed state if it came first (requisition-changed.ts records it).
 */
export async function startRequisitionSubmittedConsumer(ctx: PlatformContext, models: LabModels) {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(LAB_REQUISITION_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-submitted'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event: AnyEvent) => {
      if (!isEventOf(event, 'requisition-submitted')) return;
      const created = await createTestOrdersFromSubmission(models, event);
      if (created.length) ctx.nudgeOutbox();
      // a change of the requisition consumed before its submission (another topic: no ordering between them)
      await applyRequisitionState(models, event.data.requisitionId);
      ctx.logger.info(
        { requisitionId: event.data.requisitionId, created: created.length },
        'test orders created from requisition-submitted',
      );
    },
  });
}
