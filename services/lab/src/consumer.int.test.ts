import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PROCESSED_EVENTS_COLLECTION,
  safeParseEventJson,
  topicFor,
  withPrefix,
  type EventEnvelope,
} from '@onco/events';
import { settled, useTestSystem, waitFor } from '@onco/testing';
import { submittedEvent } from '../test/events';
import {
  createLabModule,
  createTestOrdersFromSubmission,
  LAB_REQUISITION_GROUP,
  type LabModule,
} from './index';

describe('lab: requisition-submitted consumer (real Kafka and the store)', () => {
  let lab: LabModule;
  const { sys, producer, collector } = useTestSystem({
    kafka: { ensureTopics: true },
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
    prepare: async () => {
      lab = createLabModule(sys.ctx);
    },
    producer: true,
    collect: ['test-status'],
  });

  const publish = async (event: EventEnvelope<'requisition-submitted'>) => {
    await producer.send({
      topic: topicFor('requisition-submitted', sys.config.TOPIC_PREFIX),
      messages: [{ key: event.subject, value: JSON.stringify(event) }],
    });
  };
  const marker = (eventId: string) =>
    sys.ctx.mongo.collection(PROCESSED_EVENTS_COLLECTION).countDocuments({
      _id: `${withPrefix(LAB_REQUISITION_GROUP, sys.config.TOPIC_PREFIX)}:${eventId}`,
    } as never);

  it('creates the test orders with their history and scope, and emits a test-status event for each', async () => {
    const event = submittedEvent();
    const d = event.data;
    await publish(event);
    const orders = await waitFor(
      async () => {
        const rows = await lab.models.TestOrder.find({ 'testOrderForm.id': d.requisitionId }).lean();
        return rows.length === 2 ? rows : null;
      },
      { what: 'two test orders' },
    );
    const t1 = orders.find((o) => o._id === `${d.requisitionId}-t1`)!;
    expect(t1).toMatchObject({
      testOrderId: 'TO-1001',
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'TEST_ORDERED',
      createdBy: 'user-1',
      testOrderForm: {
        id: d.requisitionId,
        testRequisitionId: 'TRF-000123',
        account: { id: 'acc-A' },
        physician: { id: 'phy-1' },
        patient: { id: 'pat-1' },
        reviewStatus: 'NEEDS_REVIEW',
      },
    });
    expect(t1.testHistories).toHaveLength(1);
    expect(t1.testHistories[0]).toMatchObject({
      status: 'TEST_ORDERED',
      updatedOn: new Date(d.submittedOn),
      // who ordered it, for the Test History's By column
      change: 'created',
      by: { id: d.submittedBy.id, name: d.submittedBy.name },
    });

    const events = await waitFor(
      () => {
        const mine = collector.messages.filter((m) => m.key?.startsWith(d.requisitionId));
        return mine.length >= 2 ? mine : null;
      },
      { what: 'two test-status events on Kafka', timeoutMs: 45_000 },
    );
    const parsed = events.map((m) => safeParseEventJson(m.value));
    expect(parsed.every((p) => p.ok)).toBe(true);
    const data = parsed.map((p) => (p.ok ? (p.event.data as Record<string, unknown>) : {}));
    expect(data.map((x) => x.testOrderId).sort()).toEqual([`${d.requisitionId}-t1`, `${d.requisitionId}-t2`]);
    expect(data[0]).toMatchObject({
      requisitionId: d.requisitionId,
      testRequisitionId: 'TRF-000123',
      accountId: 'acc-A',
      previousStatus: null,
      status: 'TEST_ORDERED',
      changedBy: { id: 'user-1', name: 'Dr. One' },
      dueOn: null,
    });
    // every test-status event carries the submission's trace id
    expect(parsed.every((p) => p.ok && p.event.traceId === event.traceId)).toBe(true);
    // the outbox is emptied once Kafka has them
    await waitFor(
      async () => (await lab.models.TestOrder.countDocuments({ 'outbox.0': { $exists: true } })) === 0,
      {
        what: 'outbox drained',
      },
    );

    // the same event delivered twice (same id: the consumer's marker) and the same submission under a new
    // event id (a redelivery after a crash before the marker): nothing new, no second event
    const again = { ...event, id: randomUUID() };
    await publish(event);
    await publish(again);
    await waitFor(async () => (await marker(again.id)) === 1, { what: 'the redelivery processed' });
    sys.ctx.nudgeOutbox();
    // everything in flight done (outbox, the lab's consumer group) and every event published so far collected
    await settled(sys);
    await collector.drained();
    expect(await lab.models.TestOrder.countDocuments({ 'testOrderForm.id': d.requisitionId })).toBe(2);
    expect(await lab.models.TestOrder.countDocuments({ 'outbox.0': { $exists: true } })).toBe(0);
    expect(collector.messages.filter((m) => m.key?.startsWith(d.requisitionId))).toHaveLength(2);
  });

  it('the handler itself creates nothing on a second run', async () => {
    const event = submittedEvent();
    expect(await createTestOrdersFromSubmission(lab.models, event)).toHaveLength(2);
    expect(await createTestOrdersFromSubmission(lab.models, event)).toEqual([]);
    const rows = await lab.models.TestOrder.find({ 'testOrderForm.id': event.data.requisitionId }).lean();
    expect(rows).toHaveLength(2);
  });
});
