import { describe, expect, it } from 'vitest';
import { safeParseEventJson } from '@onco/events';
import { provider, settled, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as RQ } from '@onco/requisitions/testing';
import { submitToLab } from '../test/submit';
import { createLabModule, type LabModule } from './index';

/**
 * Merge TRF across services, everything running: the requisitions service makes the duplicate INVALID with a
 * link to its primary (requisition-changed v2 `mergedInto`); the lab ends the duplicate's tests as merged
 * (cancelled unless reported) with their test-status events; the projections and the timeline follow; nothing
 * is lost (the duplicate stays readable, the reported test keeps its report status).
 */
describe('Merge TRF: duplicate → primary (real Kafka, the store, Redis)', () => {
  let lab: LabModule;
  const { sys, h, call, collector } = useTestSystem({
    kafka: true,
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
    prepare: async () => {
      lab = createLabModule(sys.ctx);
    },
    collect: ['test-status'],
    users: {
      accessioner: 'ROLE_ACCESSIONER',
      other: 'ROLE_PROJECT_MANAGER',
      npi: provider({ id: 'acc-Z', name: 'Zeta' }, 'phy-Z'),
    },
  });

  /** a NEXT_DX + NEXT_PERSONAL_DX requisition submitted through the API, once the lab has its two tests */
  async function submitted(who: keyof typeof h) {
    const form = completeForm({ accountId: 'acc-M', physicianId: 'phy-M', patientId: 'pat-M' });
    form.orderInformation = { nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' };
    return submitToLab(sys, lab.models, h[who], form);
  }

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
