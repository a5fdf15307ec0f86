/**
 * runBatchConsumer against real Kafka and the MongoDB-wire server: offsets are committed only after the batch
 * handler succeeded (a throwing handler loses nothing), poison messages and refused events are dead-lettered.
 */
import type { Admin, Producer } from 'kafkajs';
import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEAD_LETTERS_COLLECTION,
  EXAMPLE_DATA,
  PROCESSED_EVENTS_COLLECTION,
  createEvent,
  runBatchConsumer,
  topicFor,
  type AnyEvent,
  type DeadLetter,
  type RunBatchConsumerOptions,
  type RunningConsumer,
} from './index';
import { kafkaTestBed, waitFor } from '@onco/testing';

const bed = kafkaTestBed('batch');
const { run, prefix, kafka } = bed;
const groupId = `test_${run}-batch`;
const topic = topicFor('test-status', prefix);

let conn: mongoose.Connection;
let producer: Producer;
let admin: Admin;
const running: RunningConsumer[] = [];

const statusEvent = (testOrderId: string) =>
  createEvent('test-status', { data: { ...EXAMPLE_DATA['test-status'], testOrderId } });

const start = async (handler: RunBatchConsumerOptions['handler'], group = groupId) => {
  const consumer = await runBatchConsumer({
    kafka,
    db: conn,
    groupId: group,
    topics: ['test-status'],
    topicPrefix: prefix,
    consumerConfig: {
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      retry: { retries: 1, initialRetryTime: 100 },
    },
    handler,
  });
  running.push(consumer);
  await waitFor(() => consumer.ready.then(() => true), { timeoutMs: 60_000, what: 'group join' });
  return consumer;
};

/** The group's committed offset of a partition (the next offset to read; -1 when none). */
const committed = async (partition: number) => {
  const [t] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return Number(t.partitions.find((p) => p.partition === partition)?.offset ?? -1);
};

const deadLetters = () =>
  conn.db!.collection<DeadLetter>(DEAD_LETTERS_COLLECTION).find({ groupId }).toArray();

beforeAll(async () => {
  conn = await bed.open();
  producer = kafka.producer();
  await producer.connect();
  admin = kafka.admin();
  await admin.connect();
}, 120_000);

afterAll(async () => {
  for (const c of running) await c.stop().catch(() => undefined);
  await producer?.disconnect().catch(() => undefined);
  await conn?.db
    ?.collection(DEAD_LETTERS_COLLECTION)
    .deleteMany({ groupId })
    .catch(() => undefined);
  await admin?.disconnect().catch(() => undefined);
  await bed.close();
}, 60_000);

describe('runBatchConsumer', () => {
  it('commits nothing while the handler throws, then hands the events over again; poison is dead-lettered', async () => {
    const key = 'to-batch';
    const [e1, e2, e3] = [statusEvent(key), statusEvent(key), statusEvent(key)];
    const wrongFamily = createEvent('sample', { data: EXAMPLE_DATA.sample });
    const message = (e: AnyEvent) => ({ key, value: JSON.stringify(e) });
    // one send, one key: one partition, offsets base .. base+4 in this order
    const [meta] = await producer.send({
      topic,
      acks: -1,
      messages: [{ key, value: 'not json' }, message(wrongFamily), message(e1), message(e2), message(e3)],
    });
    const { partition } = meta;
    const base = Number(meta.baseOffset);

    // 1. the store is "down": the handler always throws, so the batch must be retried and never committed
    let failedCalls = 0;
    const failing = await start(async () => {
      failedCalls++;
      throw new Error('store down');
    });
    await waitFor(() => failedCalls >= 2, { timeoutMs: 60_000, what: 'the batch retried after a throw' });
    const poison = await waitFor(
      async () => {
        const rows = await deadLetters();
        return rows.length === 2 ? rows : null;
      },
      { what: 'the two poison messages dead-lettered' },
    );
    await failing.stop();
    // nothing past the poison messages is committed (at most the poison messages alone, had they come in a batch of their own)
    expect(await committed(partition)).toBeLessThanOrEqual(base + 2);

    expect(poison.map((d) => [d._id, d.reason, d.attempts, d.eventId, d.value]).sort()).toEqual(
      [
        [`${groupId}:${topic}:${partition}:${base}`, 'unparseable', 0, null, 'not json'],
        [
          `${groupId}:${topic}:${partition}:${base + 1}`,
          'unparseable',
          0,
          wrongFamily.id,
          JSON.stringify(wrongFamily),
        ],
      ].sort(),
    );
    expect(poison.find((d) => d.eventId === wrongFamily.id)?.error).toMatch(/does not belong/);

    // 2. the store is back: the same group gets the same events; one of them is refused (dead-lettered)
    const seen: string[] = [];
    const working = await start(async (events) => {
      seen.push(...events.map((e) => e.id));
      return { refused: events.filter((e) => e.id === e2.id).map((event) => ({ event, error: 'refused' })) };
    });
    await waitFor(async () => (await committed(partition)) === base + 5, {
      timeoutMs: 60_000,
      what: 'the offsets committed after the handler succeeded',
    });
    expect(seen).toEqual([e1.id, e2.id, e3.id]);
    expect(working.metrics.processed).toBe(2);
    const refused = (await deadLetters()).find((d) => d.reason === 'handler-failed');
    expect(refused).toMatchObject({
      _id: `${groupId}:${e2.id}`,
      attempts: 1,
      error: 'refused',
      eventId: e2.id,
      eventType: 'test.status-changed',
      subject: key,
      topic,
      partition,
      offset: String(base + 3),
    });
    expect(JSON.parse(refused!.value!)).toEqual(e2);
    expect(await deadLetters()).toHaveLength(3);
    // batch mode keeps no markers: the handler is idempotent by itself
    expect(await conn.db!.collection(PROCESSED_EVENTS_COLLECTION).countDocuments({ groupId })).toBe(0);
  }, 150_000);

  it('a crash kafkajs will not restart (a non-retriable error) is restarted, and the batch handed over again', async () => {
    const key = 'to-restart';
    const e = statusEvent(key);
    const [meta] = await producer.send({ topic, acks: -1, messages: [{ key, value: JSON.stringify(e) }] });
    const group = `${groupId}-restart`;
    let handedOver = 0; // the group reads the topic from the beginning: other partitions' batches come too
    const consumer = await start(async (events) => {
      if (!events.some((x) => x.id === e.id)) return;
      // what kafkajs does with "Failed to find group coordinator" during a broker restart: crash, no restart
      if (++handedOver === 1) throw Object.assign(new Error('not retriable'), { retriable: false });
    }, group);
    await waitFor(() => (handedOver >= 2 ? true : null), {
      timeoutMs: 60_000,
      what: 'the batch after a restart',
    });
    expect(consumer.metrics.restarts).toBe(1);
    await waitFor(
      async () => {
        const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
        const at = Number(t.partitions.find((p) => p.partition === meta.partition)?.offset ?? -1);
        return at === Number(meta.baseOffset) + 1 ? true : null;
      },
      { timeoutMs: 60_000, what: 'the offset committed after the restart' },
    );
  }, 150_000);
});
