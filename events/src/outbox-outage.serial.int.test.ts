/**
 * THE outbox test: Kafka is down while a state change and its event are committed.
 * The event must stay on the document (never lost, never dropped) while the relay fails and
 * backs off, and reach a consumer exactly once when Kafka is back.
 *
 * Stops and starts the real Kafka with scripts/infra.sh, so it runs alone (the `serial` vitest
 * project, plus an exclusive lock against this package's other Kafka tests).
 */
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEAD_LETTERS_COLLECTION,
  EXAMPLE_DATA,
  OutboxRelay,
  PROCESSED_EVENTS_COLLECTION,
  allTopics,
  createEvent,
  ensureTopics,
  runConsumer,
  topicFor,
  withOutbox,
  type AnyEvent,
  type OutboxEntry,
} from './index';
import { collectMessages, groupDrained, infra, kafkaTestLock, runSuffix, waitFor } from '@onco/testing';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from '../../services/platform/src/config';

const KAFKA_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const MONGO_URL = process.env.MONGO_URL ?? mongoUrlWithDb(LOCAL_MONGO_URL, 'oncotrf_test');

const run = runSuffix();
const prefix = `test_${run}-outage`;
const collName = `outage_it_${run}`;
const groupId = `test_${run}-outage`;
const kafka = new Kafka({
  clientId: `outage-it-${run}`,
  brokers: KAFKA_BROKERS,
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1_000,
  retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1_000 },
});

let conn: mongoose.Connection;
let release: () => void = () => {};
let kafkaStopped = false;

async function kafkaReachable(): Promise<boolean> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

beforeAll(async () => {
  release = await kafkaTestLock('exclusive');
  conn = await mongoose.createConnection(MONGO_URL, { serverSelectionTimeoutMS: 10_000 }).asPromise();
  await waitFor(kafkaReachable, { timeoutMs: 60_000, what: 'Kafka up before the test' });
  await ensureTopics(kafka, prefix);
  await conn
    .db!.collection(collName)
    .insertOne({ _id: 'to-outage' as never, status: 'TEST_ORDERED', outbox: [] });
}, 180_000);

afterAll(async () => {
  if (kafkaStopped) await infra('start', 'kafka').catch((err) => console.error(err));
  const db = conn?.db;
  if (db) {
    await db
      .collection(collName)
      .drop()
      .catch(() => undefined);
    await db
      .collection(PROCESSED_EVENTS_COLLECTION)
      .deleteMany({ groupId })
      .catch(() => undefined);
    await db
      .collection(DEAD_LETTERS_COLLECTION)
      .deleteMany({ groupId })
      .catch(() => undefined);
  }
  await conn?.close();
  if (await kafkaReachable()) {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: allTopics(prefix), timeout: 10_000 }).catch(() => undefined);
    await admin.disconnect();
  }
  release();
}, 180_000);

describe('outbox while Kafka is down', () => {
  it('keeps the event on the document, then delivers it exactly once when Kafka is back', async () => {
    const logs: { level: string; msg?: string; obj: Record<string, unknown> }[] = [];
    const capture = (level: string) => (obj: Record<string, unknown>, msg?: string) =>
      logs.push({ level, obj, msg });
    const logger = {
      debug: capture('debug'),
      info: capture('info'),
      warn: capture('warn'),
      error: capture('error'),
    };
    const relay = new OutboxRelay({
      logger,
      kafka,
      db: conn,
      collections: [collName],
      topicPrefix: prefix,
      pollIntervalMs: 200,
      backoff: { initialMs: 200, maxMs: 2_000 },
      producerRetry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 },
    });
    const coll = conn.db!.collection(collName);
    let consumer: Awaited<ReturnType<typeof runConsumer>> | undefined;
    let collector: Awaited<ReturnType<typeof collectMessages>> | undefined;
    try {
      relay.start();
      await waitFor(() => relay.metrics.passes >= 1, { what: 'relay running' });

      // 1. Kafka goes down
      kafkaStopped = true;
      await infra('stop', 'kafka');
      await waitFor(async () => !(await kafkaReachable()), { timeoutMs: 30_000, what: 'Kafka down' });

      // 2. a state change and its event, in ONE single-document update
      const event: AnyEvent = createEvent('test-status', {
        data: {
          ...EXAMPLE_DATA['test-status'],
          testOrderId: 'to-outage',
          previousStatus: 'TEST_ORDERED',
          status: 'IN_PROGRESS',
        },
      });
      const res = await coll.updateOne(
        { _id: 'to-outage' as never, status: 'TEST_ORDERED' },
        withOutbox({ $set: { status: 'IN_PROGRESS' } }, event),
      );
      expect(res.modifiedCount).toBe(1);
      relay.nudge();

      // 3. the relay fails a few passes; the event stays pending, attempts recorded
      const failuresBefore = relay.failures;
      await waitFor(() => relay.failures >= failuresBefore + 3, {
        timeoutMs: 60_000,
        what: '3 failed passes',
      });
      const doc = await coll.findOne({ _id: 'to-outage' as never });
      expect(doc?.status).toBe('IN_PROGRESS');
      expect(doc?.outbox).toHaveLength(1);
      const entry = doc!.outbox[0] as OutboxEntry;
      expect(entry.id).toBe(event.id);
      expect(entry.attempts).toBeGreaterThanOrEqual(1);
      expect(entry.lastError).toEqual(expect.any(String));
      expect(await relay.pending()).toBe(1);
      expect(relay.published).toBe(0);
      expect(relay.metrics.consecutiveFailures).toBeGreaterThanOrEqual(3);
      expect(
        logs.filter((l) => l.level === 'warn' && l.msg?.includes('pass failed')).length,
      ).toBeGreaterThanOrEqual(3);
      const backoffs = logs
        .filter((l) => l.msg === 'outbox relay backing off')
        .map((l) => Number(l.obj.delayMs));
      expect(backoffs.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...backoffs)).toBeLessThanOrEqual(2_000);

      // 4. Kafka comes back: the relay publishes (after its backoff) and clears the entry
      await infra('start', 'kafka');
      kafkaStopped = false;
      await waitFor(kafkaReachable, { timeoutMs: 90_000, intervalMs: 500, what: 'Kafka up again' });
      await waitFor(async () => (await relay.pending()) === 0, {
        timeoutMs: 60_000,
        intervalMs: 250,
        what: 'outbox drained',
      });
      expect(relay.published).toBe(1);
      expect(relay.metrics.consecutiveFailures).toBe(0);
      expect((await coll.findOne({ _id: 'to-outage' as never }))?.outbox).toEqual([]);

      // 5. exactly once at a consumer, and exactly one copy in the topic
      const handled: string[] = [];
      consumer = await runConsumer({
        kafka,
        db: conn,
        groupId,
        topics: ['test-status'],
        topicPrefix: prefix,
        handler: (e) => {
          handled.push(e.id);
        },
      });
      collector = await collectMessages(kafka, [topicFor('test-status', prefix)], `${groupId}-raw`);
      await waitFor(() => handled.includes(event.id), { timeoutMs: 60_000, what: 'event handled' });
      await waitFor(() => collector!.messages.length >= 1, { timeoutMs: 60_000, what: 'raw copy' });
      // a duplicate would be in by now: the group has processed, and the collector read, to the topic's end
      await groupDrained(kafka, groupId, [topicFor('test-status', prefix)]);
      await collector.drained();
      expect(handled.filter((id) => id === event.id)).toHaveLength(1);
      expect(collector.messages.filter((m) => m.headers['event-id'] === event.id)).toHaveLength(1);
      expect(consumer.metrics).toMatchObject({ processed: 1, deadLettered: 0 });
    } finally {
      await collector?.stop().catch(() => undefined);
      await consumer?.stop().catch(() => undefined);
      await relay.stop();
    }
  }, 240_000);
});
