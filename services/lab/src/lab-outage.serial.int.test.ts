/**
 * Lab changes while Kafka is down: Update Status and a new sample are committed at once (their test-status and
 * sample events wait in the documents' outboxes), and once Kafka is back each event is published exactly once
 * and the requisition's projections follow.
 *
 * Stops and starts the real Kafka with scripts/infra.sh, so it runs alone (the `serial` project, plus the
 * exclusive Kafka test lock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseEventJson, topicFor } from '@onco/events';
import {
  collectMessages,
  infra,
  kafkaTestLock,
  settled,
  waitFor,
  createTestSystem,
  createUser,
  login,
  TEST_PASSWORD,
} from '@onco/testing';
import { completeForm, isoDaysAgo } from '@onco/requisitions/testing';
import { createLabModule, seedDomainPreferences, type LabModule } from './index';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;
const RQ = '/portal/api/v1/testOrderForms';
const OMS = '/oms/api/v1';

describe('lab changes while Kafka is stopped (real Kafka, the store, Redis)', () => {
  let sys: Sys;
  let lab: LabModule;
  let auth: { authorization: string };
  let release: () => void = () => {};
  let kafkaStopped = false;

  beforeAll(async () => {
    release = await kafkaTestLock('exclusive');
    sys = await createTestSystem({ WORKERS: 'true' });
    lab = createLabModule(sys.ctx);
    await seedDomainPreferences(lab.models);
    const u = await createUser(sys, 'ROLE_ACCESSIONER');
    auth = { authorization: (await login(sys, u.loginId)).authorization };
  }, 180_000);

  afterAll(async () => {
    if (kafkaStopped) await infra('start', 'kafka').catch((err) => console.error(err));
    await sys?.close();
    release();
  }, 180_000);

  it('a status change and a new sample reach Kafka exactly once when it is back', async () => {
    const call = (method: 'POST' | 'GET', url: string, payload?: object) =>
      sys.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    const form = completeForm({ accountId: 'acc-lo', physicianId: 'phy-lo' });
    const draft = (await call('POST', RQ, form)).json();
    expect((await call('POST', `${RQ}/${draft.id}/sign`, { password: TEST_PASSWORD })).statusCode).toBe(200);
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

    await infra('stop', 'kafka');
    kafkaStopped = true;
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

    await infra('start', 'kafka');
    kafkaStopped = false;

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
  }, 400_000);
});
