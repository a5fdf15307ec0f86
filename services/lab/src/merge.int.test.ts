import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseEventJson, topicFor } from '@onco/events';
import {
  createTestSystem,
  createUser,
  login,
  settled,
  TEST_PASSWORD,
  collectMessages,
  kafkaTestLock,
  waitFor,
} from '@onco/testing';
import { completeForm } from '@onco/requisitions/testing';
import { createLabModule, type LabModule } from './index';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

/**
 * Merge TRF across services, everything running: the requisitions service makes the duplicate INVALID with a
 * link to its primary (requisition-changed v2 `mergedInto`); the lab ends the duplicate's tests as merged
 * (cancelled unless reported) with their test-status events; the projections and the timeline follow; nothing
 * is lost (the duplicate stays readable, the reported test keeps its report status).
 */
describe('Merge TRF: duplicate → primary (real Kafka, the store, Redis)', () => {
  let sys: Sys;
  let lab: LabModule;
  let release: () => void;
  let collector: Awaited<ReturnType<typeof collectMessages>>;
  const h: Record<string, { authorization: string }> = {};
  const RQ = '/portal/api/v1/testOrderForms';
  const call = (method: 'GET' | 'POST', url: string, who: string, payload?: object) =>
    sys.app.inject({ method, url, headers: h[who], ...(payload ? { payload } : {}) });

  async function submitted(who: string) {
    const form = completeForm({ accountId: 'acc-M', physicianId: 'phy-M', patientId: 'pat-M' });
    form.orderInformation = { nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' };
    const draft = await call('POST', RQ, who, form);
    expect(draft.statusCode, draft.body).toBe(200);
    const id = draft.json().id;
    expect((await call('POST', `${RQ}/${id}/sign`, who, { password: TEST_PASSWORD })).statusCode).toBe(200);
    const sub = await call('POST', `${RQ}/submit`, who, { ...form, id });
    expect(sub.statusCode, sub.body).toBe(200);
    const body = sub.json();
    await waitFor(
      async () =>
        (await lab.models.TestOrder.countDocuments({ 'testOrderForm.id': id })) === 2 ? true : null,
      { what: 'the lab test orders', timeoutMs: 45_000 },
    );
    return body as { id: string; testRequisitionId: string; testOrders: Array<{ id: string }> };
  }

  beforeAll(async () => {
    release = await kafkaTestLock('shared');
    sys = await createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' });
    lab = createLabModule(sys.ctx);
    collector = await collectMessages(
      sys.ctx.kafka,
      [topicFor('test-status', sys.config.TOPIC_PREFIX)],
      `collector-${sys.suffix}`,
    );
    const users = {
      accessioner: await createUser(sys, 'ROLE_ACCESSIONER'),
      other: await createUser(sys, 'ROLE_PROJECT_MANAGER'),
      npi: await createUser(sys, 'ROLE_NPI', {
        account: { id: 'acc-Z', name: 'Zeta' },
        physicianId: 'phy-Z',
      }),
    };
    for (const [k, u] of Object.entries(users))
      h[k] = { authorization: (await login(sys, u.loginId)).authorization };
  });
  afterAll(async () => {
    await collector?.stop();
    await sys?.close();
    release?.();
  });

  it('the duplicate becomes INVALID with a link to its primary; its tests end merged; nothing is lost', async () => {
    const primary = await submitted('accessioner');
    const duplicate = await submitted('accessioner');
    const [open, reported] = duplicate.testOrders.map((t) => t.id);
    // one of the duplicate's tests already has its report: it keeps that status
    for (const status of ['IN_PROGRESS', 'REPORT_COMPLETE'] as const) {
      const r = await call('POST', '/oms/api/v1/testOrders/updateTestsStatus', 'accessioner', {
        uuids: [reported],
        status,
      });
      expect(r.statusCode, r.body).toBe(200);
    }
    // a provider outside the account may not merge (no permission) — and cannot even see the forms
    const refused = await call(
      'POST',
      `${RQ}/merge?sourceTrfId=${duplicate.id}&targetTrfId=${primary.id}`,
      'npi',
    );
    expect([403, 404]).toContain(refused.statusCode);

    const res = await call(
      'POST',
      `${RQ}/merge?sourceTrfId=${duplicate.id}&targetTrfId=${primary.id}`,
      'accessioner',
    );
    expect(res.statusCode, res.body).toBe(200);

    const dup = (await call('GET', `${RQ}/${duplicate.id}`, 'accessioner')).json();
    expect(dup).toMatchObject({
      status: 'INVALID',
      mergedInto: { id: primary.id, testRequisitionId: primary.testRequisitionId },
    });

    // the lab: the open test is CANCELLED as merged, the reported one keeps REPORT_COMPLETE
    const tests = await waitFor(
      async () => {
        const rows = await lab.models.TestOrder.find({ 'testOrderForm.id': duplicate.id }).lean();
        return rows.every((t) => t.testHistories.some((x) => x.change === 'merged')) ? rows : null;
      },
      { what: 'the merged tests', timeoutMs: 45_000 },
    );
    const byId = Object.fromEntries(tests.map((t) => [t._id, t]));
    expect(byId[open].status).toBe('CANCELLED');
    expect(byId[reported].status).toBe('REPORT_COMPLETE');
    expect(byId[open].testHistories.at(-1)).toMatchObject({
      change: 'merged',
      detail: `Merged into ${primary.testRequisitionId}`,
    });
    // one test-status event each, change 'merged'
    await waitFor(
      () => {
        const merged = collector.messages
          .map((m) => safeParseEventJson(m.value))
          .filter((p) => p.ok && (p.event.data as any).change === 'merged');
        return merged.length === 2 ? merged : null;
      },
      { what: 'two merged test-status events', timeoutMs: 45_000 },
    );
    // the primary's tests are untouched
    const primaryTests = await lab.models.TestOrder.find({ 'testOrderForm.id': primary.id }).lean();
    expect(primaryTests.every((t) => t.status === 'TEST_ORDERED')).toBe(true);

    // the duplicate's projection and timeline follow
    await waitFor(
      async () => {
        const r = (await call('GET', `${RQ}/${duplicate.id}`, 'accessioner')).json();
        return r.testOrders.find((t: any) => t.id === open)?.status === 'CANCELLED' ? r : null;
      },
      { what: 'the projection of the merged test', timeoutMs: 30_000 },
    );
    const timeline = await waitFor(
      async () => {
        const body = (await call('GET', `${RQ}/${duplicate.id}/timeline`, 'accessioner')).json();
        const kinds = body.content.map((e: any) => `${e.family}:${e.kind}`);
        // both tests' merged entries: their events arrive one by one
        return kinds.includes('requisition-changed:invalidated') &&
          kinds.filter((k: string) => k === 'test-status:merged').length >= 2
          ? kinds
          : null;
      },
      { what: 'the timeline of the merge', timeoutMs: 30_000 },
    );
    expect(timeline.filter((k: string) => k === 'test-status:merged')).toHaveLength(2);

    // merging again changes nothing more
    const again = await call(
      'POST',
      `${RQ}/merge?sourceTrfId=${duplicate.id}&targetTrfId=${primary.id}`,
      'accessioner',
    );
    expect(again.statusCode).toBe(200);
    await settled(sys);
    const after = await lab.models.TestOrder.find({ 'testOrderForm.id': duplicate.id }).lean();
    for (const t of after) expect(t.testHistories.filter((x) => x.change === 'merged')).toHaveLength(1);
  });
});
