/**
 * Submit while Kafka is down: the requisition is SUBMITTED at once (the event waits on the document), and once
 * Kafka is back the event reaches every consumer: the lab creates the test orders, the TRF PDF is generated
 * exactly once and Print serves it.
 *
 * Stops and starts the real Kafka with scripts/infra.sh, so it runs alone (the `serial` project, plus the
 * exclusive Kafka test lock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  infra,
  kafkaTestLock,
  settled,
  waitFor,
  createTestSystem,
  createUser,
  login,
  TEST_PASSWORD,
} from '@onco/testing';
import { completeForm } from '../test/fixtures';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;
const API = '/portal/api/v1/testOrderForms';

describe('submit while Kafka is stopped (real Kafka, the store, Redis, chromium)', () => {
  let sys: Sys;
  let auth: { authorization: string };
  let release: () => void = () => {};
  let kafkaStopped = false;

  beforeAll(async () => {
    release = await kafkaTestLock('exclusive');
    sys = await createTestSystem({ WORKERS: 'true' });
    const u = await createUser(sys, 'ROLE_NPI', {
      account: { id: 'acc-out', name: 'Outage Oncology' },
      physicianId: 'phy-out',
    });
    auth = { authorization: (await login(sys, u.loginId)).authorization };
  }, 180_000);

  afterAll(async () => {
    if (kafkaStopped) await infra('start', 'kafka').catch((err) => console.error(err));
    await sys?.close();
    release();
  }, 180_000);

  it('the requisition is SUBMITTED, and its event, test orders and one TRF arrive once Kafka is back', async () => {
    const form = completeForm({ accountId: 'acc-out', physicianId: 'phy-out' });
    const draft = (await sys.app.inject({ method: 'POST', url: API, headers: auth, payload: form })).json();
    const signed = await sys.app.inject({
      method: 'POST',
      url: `${API}/${draft.id}/sign`,
      headers: auth,
      payload: { password: TEST_PASSWORD },
    });
    expect(signed.statusCode, signed.body).toBe(200);

    await infra('stop', 'kafka');
    kafkaStopped = true;
    const failuresBefore = sys.relay!.metrics.failures;

    const res = await sys.app.inject({
      method: 'POST',
      url: `${API}/submit?createPdf=true`,
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

    await infra('start', 'kafka');
    kafkaStopped = false;

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
        const r = await sys.app.inject({ method: 'GET', url: `${API}/${draft.id}/trf`, headers: auth });
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
  }, 400_000);
});
