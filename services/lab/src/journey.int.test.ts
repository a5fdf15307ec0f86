import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProvider,
  kafkaTestSystem,
  signIn,
  TEST_PASSWORD,
  waitFor,
  type Auth,
  type KafkaTestSystem,
} from '@onco/testing';
import { completeForm } from '@onco/requisitions/testing';
import { createMessagesModule } from '@onco/messages';
import { createLabModule } from './index';

/**
 * The submit journey across services, everything running (relay, consumers): the requisitions service commits
 * SUBMITTED with its requisition-submitted event; the lab consumer creates the test orders under the ids the
 * submit gave them; the messages service learns the requisition's scope so comments may be added; the dashboard
 * counts the ordered test for its account only.
 */
describe('submit → test orders, comments and dashboard (real Kafka, the store, Redis)', () => {
  let sys: KafkaTestSystem;
  const h: Record<string, Auth> = {};

  beforeAll(async () => {
    sys = await kafkaTestSystem({ WORKERS: 'true' });
    const npi = await createProvider(sys, { id: 'acc-A', name: 'Alpha' }, 'phy-A');
    const other = await createProvider(sys, { id: 'acc-B', name: 'Beta' }, 'phy-B');
    Object.assign(h, await signIn(sys, { npi, other }));
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('creates the submitted tests in the lab, opens comments and counts them on the dashboard', async () => {
    const API = '/portal/api/v1/testOrderForms';
    const form = completeForm({ accountId: 'acc-A', physicianId: 'phy-A' });
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: string, payload?: object) =>
      sys.app.inject({ method, url, headers: h[who], ...(payload ? { payload } : {}) });

    const draft = await call('POST', API, 'npi', form);
    expect(draft.statusCode, draft.body).toBe(200);
    const id = draft.json().id;
    // comments exist only on submitted orders: a draft is not known to the messages service
    const early = await call('POST', '/cns/api/v1/comments', 'npi', {
      testOrderForm: { id },
      messageBody: 'hi',
    });
    expect(early.statusCode).toBe(404);
    expect((await call('POST', `${API}/${id}/sign`, 'npi', { password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const submit = await call('POST', `${API}/submit`, 'npi', { ...form, id });
    expect(submit.statusCode, submit.body).toBe(200);
    const submitted = submit.json();
    const testId = submitted.testOrders[0].id;

    const lab = createLabModule(sys.ctx);
    const order = await waitFor(() => lab.models.TestOrder.findById(testId).lean(), {
      what: 'the lab test order',
      timeoutMs: 45_000,
    });
    expect(order).toMatchObject({
      status: 'TEST_ORDERED',
      testOrderId: submitted.testOrders[0].testOrderId,
      testOrderForm: { id, testRequisitionId: submitted.testRequisitionId, account: { id: 'acc-A' } },
    });
    const tests = (await call('GET', '/oms/api/v1/testOrders', 'npi')).json();
    expect(tests.content.map((t: any) => t.id)).toEqual([testId]);
    expect((await call('GET', '/oms/api/v1/testOrders', 'other')).json().totalElements).toBe(0);

    const messages = createMessagesModule(sys.ctx);
    await waitFor(() => messages.models.RequisitionScope.findById(id).lean(), {
      what: 'the scope projection',
    });
    const comment = await call('POST', '/cns/api/v1/comments', 'npi', {
      testOrderForm: { id },
      messageBody: 'Specimen ships today',
    });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(
      (await call('POST', '/cns/api/v1/comments', 'other', { testOrderForm: { id }, messageBody: 'x' }))
        .statusCode,
    ).toBe(404);

    const mine = (await call('GET', '/portal/api/v1/dashboard', 'npi')).json();
    expect(mine.testStatus.TEST_ORDERED).toBe(1);
    const theirs = (await call('GET', '/portal/api/v1/dashboard', 'other')).json();
    expect(theirs.testStatus.TEST_ORDERED).toBe(0);
  });
});
