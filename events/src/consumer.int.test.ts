/**
 * runConsumer against real Kafka and the MongoDB-wire server (DocumentDB here, MongoDB under Docker).
 */
import { Partitioners, type Producer } from 'kafkajs';
import type mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEAD_LETTERS_COLLECTION,
  EXAMPLE_DATA,
  PROCESSED_EVENTS_COLLECTION,
  createEvent,
  runConsumer,
  topicFor,
  type AnyEvent,
  type DeadLetter,
  type RunningConsumer,
} from './index';
import { kafkaTestBed, waitFor } from '@onco/testing';

const bed = kafkaTestBed('consumer');
const { run, prefix, kafka } = bed;
const groupId = `test_${run}-consumer`;

let conn: mongoose.Connection;
let producer: Producer;
let consumer: RunningConsumer;
const effects: { eventId: string; attempt: number }[] = [];
const attemptsByEvent = new Map<string, number>();
const ALWAYS_FAILS = 'to-always-fails';
/** a handler that finds Redis away for its first 5 tries (more than maxAttempts), as while Redis restarts */
const REDIS_AWAY = 'to-redis-away';

const statusEvent = (testOrderId: string) =>
  createEvent('test-status', { data: { ...EXAMPLE_DATA['test-status'], testOrderId } });

async function produce(topic: string, key: string, value: string, headers: Record<string, string> = {}) {
  await producer.send({ topic, acks: -1, messages: [{ key, value, headers }] });
}
const send = (e: AnyEvent) =>
  produce(topicFor('test-status', prefix), e.subject, JSON.stringify(e), {
    'event-id': e.id,
    'event-type': e.type,
  });

beforeAll(async () => {
  conn = await bed.open();
  producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  consumer = await runConsumer({
    kafka,
    db: conn,
    groupId,
    topics: ['test-status', 'sample'],
    topicPrefix: prefix,
    maxAttempts: 3,
    retryBackoff: { initialMs: 50, maxMs: 200 },
    consumerConfig: { sessionTimeout: 10_000, heartbeatInterval: 1_000 },
    handler: async (event, ctx) => {
      attemptsByEvent.set(event.id, ctx.attempt);
      if (event.subject === ALWAYS_FAILS) throw new Error(`lab system rejected ${event.subject}`);
      if (event.subject === REDIS_AWAY && ctx.attempt <= 5)
        throw Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
          name: 'MaxRetriesPerRequestError',
        });
      effects.push({ eventId: event.id, attempt: ctx.attempt });
    },
  });
  await waitFor(() => consumer.ready.then(() => true), { timeoutMs: 60_000, what: 'group join' });
}, 120_000);

afterAll(async () => {
  await consumer?.stop().catch(() => undefined);
  await producer?.disconnect().catch(() => undefined);
  const db = conn?.db;
  if (db) {
    await db
      .collection(PROCESSED_EVENTS_COLLECTION)
      .deleteMany({ groupId })
      .catch(() => undefined);
    await db
      .collection(DEAD_LETTERS_COLLECTION)
      .deleteMany({ groupId })
      .catch(() => undefined);
  }
  await bed.close();
}, 60_000);

const deadLetters = () =>
  conn.db!.collection<DeadLetter>(DEAD_LETTERS_COLLECTION).find({ groupId }).toArray();

describe('runConsumer', () => {
  it('the same event delivered twice has one effect', async () => {
    const e = statusEvent('to-dup');
    await send(e);
    await send(e); // identical message, second copy
    const after = statusEvent('to-dup'); // same key, so same partition, consumed after both copies
    await send(after);
    await waitFor(() => effects.some((x) => x.eventId === after.id), {
      timeoutMs: 60_000,
      what: 'the marker event',
    });
    expect(effects.filter((x) => x.eventId === e.id)).toHaveLength(1);
    expect(consumer.metrics.duplicates).toBeGreaterThanOrEqual(1);
    const marker = await conn
      .db!.collection(PROCESSED_EVENTS_COLLECTION)
      .findOne({ _id: `${groupId}:${e.id}` as never });
    expect(marker).toMatchObject({ groupId, eventId: e.id, type: 'test.status-changed' });
  }, 90_000);

  it('dead-letters poison messages and keeps going', async () => {
    const key = 'to-poison';
    await produce(topicFor('test-status', prefix), key, 'this is not json');
    const wrongFamily = createEvent('sample', { data: EXAMPLE_DATA.sample });
    await produce(topicFor('test-status', prefix), key, JSON.stringify(wrongFamily)); // valid event, wrong topic
    const invalid = { ...statusEvent(key), data: { testOrderId: key } }; // envelope fine, data incomplete
    await produce(topicFor('test-status', prefix), key, JSON.stringify(invalid));
    const good = statusEvent(key);
    await send(good);

    await waitFor(() => effects.some((x) => x.eventId === good.id), {
      timeoutMs: 60_000,
      what: 'the event after the poison',
    });
    const letters = (await deadLetters()).filter((d) => d.key === key);
    expect(letters).toHaveLength(3);
    for (const d of letters) {
      expect(d).toMatchObject({ reason: 'unparseable', topic: topicFor('test-status', prefix), groupId });
      expect(d.error.length).toBeGreaterThan(0);
    }
    const byValue = new Map(letters.map((d) => [d.value, d]));
    expect(byValue.get('this is not json')?.error).toMatch(/not JSON/);
    expect(byValue.get(JSON.stringify(wrongFamily))?.error).toMatch(/does not belong/);
    expect(byValue.get(JSON.stringify(invalid))?.error).toMatch(/invalid data/);
  }, 90_000);

  it('a dependency away is retried past maxAttempts until it is back, never dead-lettered', async () => {
    const e = statusEvent(REDIS_AWAY);
    await send(e);
    await waitFor(() => effects.some((x) => x.eventId === e.id), {
      timeoutMs: 60_000,
      what: 'the event handled once Redis is back',
    });
    expect(effects.filter((x) => x.eventId === e.id)).toEqual([{ eventId: e.id, attempt: 6 }]);
    expect((await deadLetters()).filter((d) => d.eventId === e.id)).toEqual([]);
  });

  it('dead-letters an event whose handler always throws, after maxAttempts', async () => {
    const bad = statusEvent(ALWAYS_FAILS);
    await send(bad);
    const next = statusEvent(ALWAYS_FAILS); // same partition, must still be consumed afterwards
    await send(next);
    const letter = await waitFor(
      async () => (await deadLetters()).find((d) => d.eventId === next.id && d.reason === 'handler-failed'),
      { timeoutMs: 60_000, what: 'the second dead letter' },
    );
    expect(letter).toMatchObject({
      _id: `${groupId}:${next.id}`,
      attempts: 3,
      eventType: 'test.status-changed',
    });
    const first = (await deadLetters()).find((d) => d.eventId === bad.id)!;
    expect(first).toMatchObject({ reason: 'handler-failed', attempts: 3, subject: ALWAYS_FAILS });
    expect(first.error).toBe(`lab system rejected ${ALWAYS_FAILS}`);
    expect(JSON.parse(first.value!)).toEqual(bad);
    expect(attemptsByEvent.get(bad.id)).toBe(3);
    // dead-lettered, not marked processed (a later redelivery may succeed)
    expect(
      await conn
        .db!.collection(PROCESSED_EVENTS_COLLECTION)
        .countDocuments({ _id: `${groupId}:${bad.id}` as never }),
    ).toBe(0);
    expect(effects.some((x) => x.eventId === bad.id)).toBe(false);
  }, 90_000);
});
