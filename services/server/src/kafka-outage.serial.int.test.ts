/**
 * Kafka stopped while the platform works, three scenarios in one outage: each test prepares, then Kafka stops once
 * for all of them (groupedOutage), each does its work while it is away, then Kafka starts once and each checks
 * what happened when it was back. A restart costs a JVM start and every consumer group's rejoin; three scenarios in
 * one outage cost one restart instead of three.
 *
 * - THE outbox test: a state change and its event are committed while Kafka is down; the event stays on the
 *   document (never lost, never dropped) while the relay fails and backs off, and reaches a consumer exactly once.
 * - Submit: the requisition is SUBMITTED at once; once Kafka is back its event reaches every consumer: the lab
 *   creates the test orders, the TRF PDF is generated exactly once and Print serves it.
 * - Lab changes: Update Status and a new sample are committed at once; each event is published exactly once and
 *   the requisition's projections follow.
 * - The log, in the submit and lab systems: one WARN when each component's outage starts (the Kafka client, the
 *   outbox relay, each consumer group), one INFO with its duration when it ends, and no ERROR: no retry storm.
 *
 * Stops and starts the real Kafka with scripts/infra.sh, so it runs alone (the `serial` project, plus the
 * exclusive Kafka test lock).
 */
import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import {
  EXAMPLE_DATA,
  OutboxRelay,
  RELAY_BACKOFF_MAX_MS,
  allTopics,
  createEvent,
  ensureTopics,
  runConsumer,
  safeParseEventJson,
  topicFor,
  withOutbox,
  type AnyEvent,
  type OutboxEntry,
} from '@onco/events';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from '@onco/platform';
import {
  collectMessages,
  createTestSystem,
  createUser,
  groupDrained,
  groupedOutage,
  infra,
  kafkaTestLock,
  login,
  runSuffix,
  settled,
  TEST_PASSWORD,
  waitFor,
} from '@onco/testing';
import { completeForm, isoDaysAgo } from '@onco/requisitions/testing';
import { createLabModule, seedDomainPreferences } from '@onco/lab';

const KAFKA_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
const RQ = '/portal/api/v1/testOrderForms';
const OMS = '/oms/api/v1';
type Sys = Awaited<ReturnType<typeof createTestSystem>>;

const outage = groupedOutage('kafka', 3);
const systems: Sys[] = [];
let release: () => void = () => {};

/** A system with its workers, closed after the file. */
async function system(): Promise<Sys> {
  const sys = await createTestSystem({ WORKERS: 'true' });
  systems.push(sys);
  return sys;
}

interface LogLine {
  level: number;
  time: string;
  msg: string;
  component?: string;
  durationMs?: number;
}
const WARN = 40;
const ERROR = 50;
/** The system's log (pino JSON lines). */
const logLines = (sys: Sys): LogLine[] =>
  sys.logs.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogLine);

/**
 * ERROR lines a Kafka outage may leave in a system's log: none. Every Kafka component reports it through its
 * outage log (a WARN, then debug); the kafkajs lines that remain ERROR are those that are not about the broker's
 * reachability (a handler's error, an offset out of range), which an outage does not cause.
 */
const OUTAGE_ERRORS_MAX = 0;

/**
 * The outage in the system's log: each component that logged its start (WARN "outage started") did so once, and
 * logged its end once (INFO "outage ended", with its duration); the Kafka client, the outbox relay and the consumer
 * groups each had one; at most OUTAGE_ERRORS_MAX ERROR lines. Waits for the ends (a Kafka component's recovery is
 * logged once it has lasted KAFKA_RECOVERY_SETTLE_MS).
 */
async function expectOneLinePerOutage(sys: Sys, expect: ExpectStatic): Promise<void> {
  const started = () => logLines(sys).filter((l) => l.msg === 'outage started');
  const ended = () => logLines(sys).filter((l) => l.msg === 'outage ended');
  await waitFor(
    () => {
      const open = new Set(started().map((l) => l.component));
      for (const l of ended()) open.delete(l.component);
      return open.size === 0 ? true : null;
    },
    { timeoutMs: 60_000, intervalMs: 250, what: 'every outage in the log to have ended' },
  );
  const lines = logLines(sys);
  const components = started().map((l) => l.component!);
  const byLevel = (level: number) => lines.filter((l) => l.level === level);
  console.info(
    `[kafka outage log ${sys.suffix}] ${lines.length} lines: ${byLevel(ERROR).length} ERROR, ` +
      `${byLevel(WARN).length} WARN; ${components.length} components had an outage: ` +
      components.map((c) => `${c} ${ended().find((l) => l.component === c)?.durationMs} ms`).join(', '),
  );
  expect(new Set(components).size, 'one "outage started" a component').toBe(components.length);
  expect(started().every((l) => l.level === WARN)).toBe(true);
  const ends = ended();
  expect(ends.map((l) => l.component).sort()).toEqual([...components].sort());
  for (const l of ends) {
    expect(l.level).toBe(30);
    expect(l.durationMs, `${l.component}'s outage duration`).toBeGreaterThan(0);
  }
  expect(components).toContain('kafka client');
  expect(components).toContain('outbox relay');
  expect(components.filter((c) => c.startsWith('kafka consumer ')).length).toBeGreaterThan(0);
  // each consumer rejoined as the member it was before the outage (events/src/member-id.ts): the group did not
  // wait out an old member's session
  const joined = lines.filter((l) => l.msg === 'consumer joined group') as (LogLine & {
    groupId: string;
    memberId: string;
  })[];
  for (const end of ends.filter((l) => l.component!.startsWith('kafka consumer '))) {
    const { groupId, memberId } = end as LogLine & { groupId: string; memberId: string };
    const before = joined.filter((l) => l.groupId === groupId && l.time < end.time).at(-1);
    expect(memberId, `${groupId}'s member after the outage`).toBe(before?.memberId);
  }
  // no WARN for kafkajs's own lines or a retry but the outage's start (the billing status feed's stand-in, not
  // running here, is the other WARN)
  expect(byLevel(WARN).filter((l) => l.msg !== 'outage started' && ('kafka' in l || l.component))).toEqual(
    [],
  );
  const errors = byLevel(ERROR).map((l) => l.msg);
  expect(errors.length, `ERROR lines:\n${errors.join('\n')}`).toBeLessThanOrEqual(OUTAGE_ERRORS_MAX);
}

describe.concurrent('while Kafka is stopped (real Kafka, the store, Redis, chromium)', () => {
  beforeAll(async () => {
    release = await kafkaTestLock('exclusive');
  }, 180_000);

  afterAll(async () => {
    if (outage.stopped) await infra('start', 'kafka').catch((err) => console.error(err));
    await Promise.all(systems.map((s) => s.close()));
    release();
  }, 180_000);

  it('outbox: keeps the event on the document, then delivers it exactly once when Kafka is back', async ({
    expect,
  }) => {
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
    const kafkaReachable = async () => {
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
    };
    const conn = await mongoose
      .createConnection(mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_test_${run}`), {
        serverSelectionTimeoutMS: 10_000,
      })
      .asPromise();
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
      await ensureTopics(kafka, prefix);
      await coll.insertOne({ _id: 'to-outage' as never, status: 'TEST_ORDERED', outbox: [] });
      relay.start();
      await waitFor(() => relay.metrics.passes >= 1, { what: 'relay running' });

      // 1. Kafka goes down
      await outage.down();
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
      // one WARN when the failures started, the others debug (no line a retry at WARN or ERROR)
      const relayLines = (msg: string) =>
        logs.filter((l) => l.msg === msg && l.obj.component === 'outbox relay');
      expect(relayLines('outage started').map((l) => l.level)).toEqual(['warn']);
      expect(relayLines('outage continues').length).toBeGreaterThanOrEqual(2);
      expect(relayLines('outage continues').every((l) => l.level === 'debug')).toBe(true);
      expect(logs.filter((l) => l.level === 'error')).toEqual([]);
      const backoffs = logs
        .filter((l) => l.msg === 'outbox relay backing off')
        .map((l) => Number(l.obj.delayMs));
      expect(backoffs.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...backoffs)).toBeLessThanOrEqual(RELAY_BACKOFF_MAX_MS);

      // 4. Kafka comes back: the relay publishes (after its backoff) and clears the entry
      await outage.up();
      await waitFor(kafkaReachable, { timeoutMs: 90_000, intervalMs: 500, what: 'Kafka up again' });
      await waitFor(async () => (await relay.pending()) === 0, {
        timeoutMs: 60_000,
        intervalMs: 250,
        what: 'outbox drained',
      });
      expect(relay.published).toBe(1);
      expect(relay.metrics.consecutiveFailures).toBe(0);
      // one INFO when it ended, with the outage's duration (logged once the recovery has lasted a few seconds)
      const ended = await waitFor(
        () => logs.find((l) => l.msg === 'outage ended' && l.obj.component === 'outbox relay'),
        { timeoutMs: 30_000, what: "the relay's outage ended in the log" },
      );
      expect(ended.level).toBe('info');
      expect(ended.obj.durationMs).toBeGreaterThan(0);
      expect(logs.filter((l) => l.msg === 'outage started').length).toBe(1);
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
      outage.leave();
      await collector?.stop().catch(() => undefined);
      await consumer?.stop().catch(() => undefined);
      await relay.stop();
      // the document, processed-event and dead-letter records: all in this test's own database
      await conn.dropDatabase().catch(() => undefined);
      await conn.close();
      if (await kafkaReachable()) {
        const admin = kafka.admin();
        await admin.connect();
        await admin.deleteTopics({ topics: allTopics(prefix), timeout: 10_000 }).catch(() => undefined);
        await admin.disconnect();
      }
    }
  }, 400_000);

  it('submit: the requisition is SUBMITTED, and its event, test orders and one TRF arrive once Kafka is back', async ({
    expect,
  }) => {
    try {
      const sys = await system();
      const u = await createUser(sys, 'ROLE_NPI', {
        account: { id: 'acc-out', name: 'Outage Oncology' },
        physicianId: 'phy-out',
      });
      const auth = { authorization: (await login(sys, u.loginId)).authorization };
      const form = completeForm({ accountId: 'acc-out', physicianId: 'phy-out' });
      const draft = (await sys.app.inject({ method: 'POST', url: RQ, headers: auth, payload: form })).json();
      const signed = await sys.app.inject({
        method: 'POST',
        url: `${RQ}/${draft.id}/sign`,
        headers: auth,
        payload: { password: TEST_PASSWORD },
      });
      expect(signed.statusCode, signed.body).toBe(200);

      await outage.down();
      const failuresBefore = sys.relay!.metrics.failures;

      const res = await sys.app.inject({
        method: 'POST',
        url: `${RQ}/submit?createPdf=true`,
        headers: auth,
        payload: { id: draft.id },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('SUBMITTED');
      const testOrderId = res.json().testOrders[0].id;

      // while Kafka is down the event stays on the document: never dropped (the relay has tried and failed)
      await waitFor(() => sys.relay!.metrics.failures > failuresBefore, {
        timeoutMs: 60_000,
        what: 'the relay to fail a publish while Kafka is down',
      });
      const pending = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: draft.id });
      expect(pending!.outbox).toHaveLength(1);

      await outage.up();

      // the relay publishes it; the lab creates the test order; the TRF worker renders the PDF
      await waitFor(
        async () => {
          const doc = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: draft.id });
          return (doc?.outbox ?? []).length === 0;
        },
        { timeoutMs: 120_000, intervalMs: 500, what: 'the event to leave the outbox' },
      );
      await waitFor(() => sys.ctx.mongo.collection('test_orders').findOne({ _id: testOrderId }), {
        timeoutMs: 120_000,
        intervalMs: 500,
        what: 'the lab test order',
      });
      const trf = await waitFor(
        async () => {
          const r = await sys.app.inject({ method: 'GET', url: `${RQ}/${draft.id}/trf`, headers: auth });
          return r.statusCode === 200 ? r : null;
        },
        { timeoutMs: 150_000, intervalMs: 1_000, what: 'the TRF PDF' },
      );
      expect(trf.headers['content-type']).toContain('application/pdf');

      // exactly one TRF, once everything in flight is done (outbox, consumer groups at their end offsets, queues)
      await settled(sys, { timeoutMs: 60_000 });
      const doc = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: draft.id });
      expect(doc!.attachments.filter((a: { type: string }) => a.type === 'TRF')).toHaveLength(1);
      expect(
        await sys.ctx.mongo
          .collection('attachments')
          .countDocuments({ 'testOrderForm.id': draft.id, type: 'TRF', deleted: { $ne: true } }),
      ).toBe(1);
      expect(
        await sys.ctx.mongo.collection('test_orders').countDocuments({ 'testOrderForm.id': draft.id }),
      ).toBe(1);
      await expectOneLinePerOutage(sys, expect);
    } finally {
      outage.leave();
    }
  }, 400_000);

  it('lab: a status change and a new sample reach Kafka exactly once when it is back', async ({ expect }) => {
    try {
      const sys = await system();
      const lab = createLabModule(sys.ctx);
      await seedDomainPreferences(lab.models);
      const u = await createUser(sys, 'ROLE_ACCESSIONER');
      const auth = { authorization: (await login(sys, u.loginId)).authorization };
      const call = (method: 'POST' | 'GET', url: string, payload?: object) =>
        sys.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
      const form = completeForm({ accountId: 'acc-lo', physicianId: 'phy-lo' });
      const draft = (await call('POST', RQ, form)).json();
      expect((await call('POST', `${RQ}/${draft.id}/sign`, { password: TEST_PASSWORD })).statusCode).toBe(
        200,
      );
      const sub = await call('POST', `${RQ}/submit`, { ...form, id: draft.id });
      expect(sub.statusCode, sub.body).toBe(200);
      const testId = sub.json().testOrders[0].id;
      await waitFor(() => lab.models.TestOrder.findById(testId).lean(), {
        timeoutMs: 60_000,
        what: 'the lab test order',
      });
      await waitFor(
        async () => ((await lab.models.TestOrder.findById(testId).lean())!.outbox.length === 0 ? true : null),
        { timeoutMs: 60_000, what: 'the creation event published' },
      );

      await outage.down();
      const failuresBefore = sys.relay!.metrics.failures;

      const status = await call('POST', `${OMS}/testOrders/updateTestsStatus`, {
        uuids: [testId],
        status: 'IN_PROGRESS',
      });
      expect(status.statusCode, status.body).toBe(200);
      const sample = await call('POST', `${OMS}/createSampleSource`, {
        id: draft.id,
        normals: [
          {
            status: 'ON_HOLD',
            specimenType: 'BLOOD',
            limsProjectId: 'LP-LO',
            collectedOn: isoDaysAgo(4),
            receivedOn: isoDaysAgo(2),
          },
        ],
      });
      expect(sample.statusCode, sample.body).toBe(200);
      const sampleId = sample.json().normals[0].id;

      // while Kafka is down both events wait on their documents (the relay has tried and failed)
      await waitFor(() => sys.relay!.metrics.failures > failuresBefore, {
        timeoutMs: 60_000,
        what: 'the relay to fail a publish while Kafka is down',
      });
      expect((await lab.models.TestOrder.findById(testId).lean())!.outbox).toHaveLength(1);
      expect((await lab.models.Sample.findById(sampleId).lean())!.outbox).toHaveLength(1);

      await outage.up();

      const collector = await collectMessages(
        sys.ctx.kafka,
        [topicFor('test-status', sys.config.TOPIC_PREFIX), topicFor('sample', sys.config.TOPIC_PREFIX)],
        `collector-${sys.suffix}`,
      );
      try {
        const mine = () =>
          collector.messages
            .map((m) => safeParseEventJson(m.value))
            .filter((p) => p.ok)
            .map((p) => (p.ok ? (p.event.data as Record<string, unknown>) : {}))
            .filter((d) => d.testOrderId === testId || d.sampleId === sampleId);
        await waitFor(
          () =>
            mine().some((d) => d.status === 'IN_PROGRESS') && mine().some((d) => d.sampleId) ? true : null,
          { timeoutMs: 150_000, intervalMs: 1_000, what: 'both events on Kafka' },
        );
        // the projections follow: the requisition shows the test in progress and the sample on hold
        await waitFor(
          async () => {
            const r = (await call('GET', `${RQ}/${draft.id}`)).json();
            return r.testOrders?.[0]?.status === 'IN_PROGRESS' && r.sampleStatuses?.includes('ON_HOLD')
              ? r
              : null;
          },
          { timeoutMs: 60_000, what: 'the requisition projections' },
        );
        // a duplicate would be in by now: nothing in flight, and the collector has read to the end of its topics
        await settled(sys, { timeoutMs: 60_000 });
        await collector.drained();
        expect(mine().filter((d) => d.status === 'IN_PROGRESS' && d.testOrderId === testId)).toHaveLength(1);
        expect(mine().filter((d) => d.sampleId === sampleId)).toHaveLength(1);
        expect((await lab.models.TestOrder.findById(testId).lean())!.outbox).toEqual([]);
        expect((await lab.models.Sample.findById(sampleId).lean())!.outbox).toEqual([]);
      } finally {
        await collector.stop();
      }
      await expectOneLinePerOutage(sys, expect);
    } finally {
      outage.leave();
    }
  }, 400_000);
});
