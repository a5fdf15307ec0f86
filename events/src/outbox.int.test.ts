/**
 * Outbox relay against real Kafka and the MongoDB-wire server (DocumentDB here, MongoDB under Docker).
 */
import type { Kafka, Producer } from 'kafkajs';
import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXAMPLE_DATA,
  OutboxRelay,
  createEvent,
  outboxForInsert,
  topicFor,
  withOutbox,
  type AnyEvent,
  type TestStatus,
} from './index';
import { collectMessages, kafkaTestBed, waitFor, type Collector } from '@onco/testing';

const bed = kafkaTestBed('outbox');
const { run, prefix, kafka } = bed;
const collName = `outbox_it_${run}`;

let conn: mongoose.Connection;
let collector: Collector;

const statusEvent = (testOrderId: string, status: TestStatus) =>
  createEvent('test-status', { data: { ...EXAMPLE_DATA['test-status'], testOrderId, status } });

beforeAll(async () => {
  conn = await bed.open();
  collector = await collectMessages(
    kafka,
    [topicFor('test-status', prefix), topicFor('sample', prefix)],
    `${prefix}-collector`,
  );
}, 120_000);

afterAll(async () => {
  await collector?.stop().catch(() => undefined);
  await conn?.db
    ?.collection(collName)
    .drop()
    .catch(() => undefined);
  await bed.close();
}, 60_000);

const coll = () => conn.db!.collection(collName);
const ofEvent = (id: string) => collector.messages.filter((m) => m.headers['event-id'] === id);

describe('OutboxRelay', () => {
  it('publishes pending events in order, keyed by subject, and clears them', async () => {
    const a1 = statusEvent('to-a', 'TEST_ORDERED');
    const a2 = statusEvent('to-a', 'IN_PROGRESS');
    const a3 = statusEvent('to-a', 'REPORT_COMPLETE');
    const s1 = createEvent('sample', { data: { ...EXAMPLE_DATA.sample, sampleId: 'sa-1' } });

    // insert with one event, then a state change and two events in ONE single-document update
    await coll().insertOne({ _id: 'to-a' as never, status: 'TEST_ORDERED', outbox: outboxForInsert(a1) });
    const res = await coll().updateOne(
      { _id: 'to-a' as never, status: 'TEST_ORDERED' },
      withOutbox({ $set: { status: 'REPORT_COMPLETE' } }, a2, a3),
    );
    expect(res.modifiedCount).toBe(1);
    await coll().insertOne({ _id: 'sa-1' as never, outbox: outboxForInsert(s1) });

    const relay = new OutboxRelay({ kafka, db: conn, collections: [collName], topicPrefix: prefix });
    try {
      expect(await relay.pending()).toBe(4);
      const result = await relay.runOnce();
      expect(result).toMatchObject({ published: 4, failedDocuments: 0 });
      expect(relay.published).toBe(4);
      expect(await relay.pending()).toBe(0);
      const doc = await coll().findOne({ _id: 'to-a' as never });
      expect(doc).toMatchObject({ status: 'REPORT_COMPLETE', outbox: [] });

      await waitFor(() => [a1, a2, a3, s1].every((e) => ofEvent(e.id).length === 1), {
        timeoutMs: 60_000,
        what: 'the four events at the collector',
      });
      const forA = collector.messages.filter((m) => m.key === 'to-a');
      expect(forA.map((m) => m.headers['event-id'])).toEqual([a1.id, a2.id, a3.id]);
      expect(new Set(forA.map((m) => m.partition)).size).toBe(1);
      const m = ofEvent(a2.id)[0];
      expect(m.topic).toBe(topicFor('test-status', prefix));
      expect(m.headers['event-type']).toBe('test.status-changed');
      expect(JSON.parse(m.value!)).toEqual(a2);
      expect(ofEvent(s1.id)[0]).toMatchObject({ topic: topicFor('sample', prefix), key: 'sa-1' });

      // nothing left: a second pass publishes nothing
      expect((await relay.runOnce()).published).toBe(0);
    } finally {
      await relay.stop();
    }
  }, 90_000);

  it('never clears an entry added while a send is in flight', async () => {
    const b1 = statusEvent('to-b', 'TEST_ORDERED');
    const b2 = statusEvent('to-b', 'IN_PROGRESS');
    await coll().insertOne({ _id: 'to-b' as never, status: 'TEST_ORDERED', outbox: outboxForInsert(b1) });

    // Real Kafka; the producer is wrapped so a write lands between the read and the $pull.
    let injected = false;
    const hooked = Object.create(kafka) as Kafka;
    hooked.producer = (config) => {
      const producer: Producer = kafka.producer(config);
      const sendBatch = producer.sendBatch.bind(producer);
      producer.sendBatch = async (batch) => {
        if (!injected) {
          injected = true;
          await coll().updateOne(
            { _id: 'to-b' as never },
            withOutbox({ $set: { status: 'IN_PROGRESS' } }, b2),
          );
        }
        return sendBatch(batch);
      };
      return producer;
    };

    const relay = new OutboxRelay({ kafka: hooked, db: conn, collections: [collName], topicPrefix: prefix });
    try {
      expect((await relay.runOnce()).published).toBe(1);
      const doc = await coll().findOne({ _id: 'to-b' as never });
      expect(doc?.status).toBe('IN_PROGRESS');
      expect(doc?.outbox.map((e: { id: string }) => e.id)).toEqual([b2.id]);
      expect((await relay.runOnce()).published).toBe(1);
      expect(await relay.pending()).toBe(0);
      await waitFor(() => ofEvent(b2.id).length === 1, { timeoutMs: 30_000, what: 'b2 at the collector' });
      expect(collector.messages.filter((m) => m.key === 'to-b').map((m) => m.headers['event-id'])).toEqual([
        b1.id,
        b2.id,
      ]);
    } finally {
      await relay.stop();
    }
  }, 90_000);

  it('runs in the background and delivers quickly after nudge()', async () => {
    const relay = new OutboxRelay({
      kafka,
      db: conn,
      collections: [collName],
      topicPrefix: prefix,
      pollIntervalMs: 10_000, // long on purpose: only nudge() makes it fast
    });
    relay.start();
    try {
      await waitFor(async () => relay.metrics.passes >= 1, { what: 'first pass' });
      const events: AnyEvent[] = [];
      for (let i = 0; i < 5; i++) {
        const e = statusEvent('to-c', i % 2 ? 'IN_PROGRESS' : 'TEST_ORDERED');
        events.push(e);
        await coll().updateOne({ _id: 'to-c' as never }, withOutbox({ $set: { n: i } }, e), { upsert: true });
        relay.nudge();
      }
      const started = Date.now();
      await waitFor(async () => (await relay.pending()) === 0, {
        timeoutMs: 8_000,
        what: 'outbox drained after nudge',
      });
      expect(Date.now() - started).toBeLessThan(8_000);
      // the relay's speed is asserted above; the test's own collector may be mid-rebalance on a busy machine
      await waitFor(() => events.every((e) => ofEvent(e.id).length === 1), {
        timeoutMs: 75_000,
        what: 'events at collector',
      });
      expect(collector.messages.filter((m) => m.key === 'to-c').map((m) => m.headers['event-id'])).toEqual(
        events.map((e) => e.id),
      );
    } finally {
      await relay.stop();
    }
    expect(relay.isRunning).toBe(false);
  }, 150_000);

  it('concurrent state changes racing the relay lose neither a change nor an event (atomic $push and $pull)', async () => {
    await coll().insertOne({ _id: 'race' as never, n: 0, outbox: [] });
    const relay = new OutboxRelay({
      kafka,
      db: conn,
      collections: [collName],
      topicPrefix: prefix,
      pollIntervalMs: 5,
    });
    await relay.start();
    const events = Array.from({ length: 30 }, (_, i) =>
      statusEvent('race', i % 2 ? 'IN_PROGRESS' : 'TEST_ORDERED'),
    );
    try {
      // no lock anywhere: each writer's $inc + $push and the relay's $pull by entry id are single atomic updates
      await Promise.all(
        events.map(async (e, i) => {
          await new Promise((r) => setTimeout(r, i * 3));
          await coll().updateOne({ _id: 'race' as never }, withOutbox({ $inc: { n: 1 } }, e));
          relay.nudge();
        }),
      );
      await waitFor(() => events.every((e) => ofEvent(e.id).length >= 1), {
        timeoutMs: 60_000,
        what: 'all 30 events',
      });
      await waitFor(async () => (await relay.pending()) === 0, { what: 'an empty outbox' });
      expect((await coll().findOne({ _id: 'race' as never }))?.n).toBe(30);
      expect(events.every((e) => ofEvent(e.id).length === 1)).toBe(true);
    } finally {
      await relay.stop();
    }
  }, 90_000);
});
