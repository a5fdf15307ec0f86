import { describe, expect, it } from 'vitest';
import type { App } from '@onco/platform';
import { user, useTestSystem } from '@onco/testing';
import { createReferenceModule } from '@onco/reference';
import { createBillingModule, type BillingCaseDoc, type BillingModule } from './index';

describe('billing: model and GET /bis/api/v1/billingCases (real store)', () => {
  let billing: BillingModule;
  let app: App;

  // seed rows (partial on purpose: the schema fills the defaults)
  const billingCase = (n: number, over: Record<string, unknown>): BillingCaseDoc =>
    ({
      testId: `T-${n}`,
      testOrderId: `to-${n}`,
      testRequisitionId: `TRF-${n}`,
      testOrderFormId: `tof-${n}`,
      accountName: 'Alpha Oncology',
      account: { id: 'acc-A', name: 'Alpha Oncology' },
      physician: { id: 'phy-1', name: 'Dr. One' },
      patient: { id: `pat-${n}`, name: `Patient ${n}` },
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      testStatus: 'REPORT_COMPLETE',
      reviewStatus: 'REVIEW_COMPLETE',
      caseStatus: 'READY_TO_SUBMIT',
      updatedOn: new Date(Date.UTC(2025, 1, n)),
      ...over,
    }) as unknown as BillingCaseDoc;

  const { sys, h } = useTestSystem({
    prepare: async () => {
      billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
      app = sys.app; // the area is mounted by the system like in production
      await billing.models.BillingCase.init();
      await billing.models.BillingCase.create([
        billingCase(1, { assignee: { id: 'u-1', name: 'Bea Biller' } }),
        billingCase(2, {
          caseStatus: 'REJECTED_BY_XIFIN',
          errorDetails: 'Invalid payor',
          assignee: { id: 'u-1', name: 'Bea Biller' },
        }),
        billingCase(3, {
          testType: 'NEXT_PERSONAL_DX',
          testStatus: 'IN_PROGRESS',
          reviewStatus: 'NEEDS_REVIEW',
          caseStatus: 'NOT_SUBMITTED',
          account: { id: 'acc-B', name: 'Beta' },
          accountName: 'Beta',
        }),
        billingCase(4, { deleted: true }),
        billingCase(5, {
          caseStatus: 'ACCEPTED_BY_XIFIN',
          caseHistory: [
            { id: 'h-1', status: 'SUBMITTED_TO_XIFIN', createdOn: new Date(Date.UTC(2025, 1, 5)) },
            { id: 'h-2', status: 'ACCEPTED_BY_XIFIN', createdOn: new Date(Date.UTC(2025, 1, 6)) },
          ],
        }),
      ]);
    },
    users: {
      admin: 'ROLE_ADMINISTRATOR',
      npi: user('ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
    },
  });

  const get = (who: keyof typeof h, url: string) => app.inject({ method: 'GET', url, headers: h[who] });

  it('creates the billing-list indexes, with one case per test order', async () => {
    const indexes = await billing.models.BillingCase.collection.indexes();
    const keys = indexes.map((i) => JSON.stringify(i.key));
    for (const k of [
      { updatedOn: -1 },
      { testType: 1 },
      { testStatus: 1 },
      { reviewStatus: 1 },
      { caseStatus: 1, updatedOn: -1 },
      { 'assignee.name': 1 },
    ]) {
      expect(keys).toContain(JSON.stringify(k));
    }
    expect(indexes.find((i) => JSON.stringify(i.key) === JSON.stringify({ testOrderId: 1 }))?.unique).toBe(
      true,
    );
    await expect(billing.models.BillingCase.create(billingCase(1, {}))).rejects.toMatchObject({
      code: 11000,
    });
    expect(billing.outboxCollections).toEqual(['billing_cases']);
  });

  it('needs VIEW_BILLING_PAGE', async () => {
    expect((await get('npi', '/bis/api/v1/billingCases')).statusCode).toBe(403);
  });

  it('lists cases newest first (default size 15) with the case history', async () => {
    const body = (await get('admin', '/bis/api/v1/billingCases')).json();
    expect(body.totalElements).toBe(4);
    expect(body.content.map((c: any) => c.testId)).toEqual(['T-5', 'T-3', 'T-2', 'T-1']);
    expect(body.content[0].caseHistory.map((e: any) => e.status)).toEqual([
      'SUBMITTED_TO_XIFIN',
      'ACCEPTED_BY_XIFIN',
    ]);
  });

  it('filters by the spec keys and returns the five facets', async () => {
    const filter = encodeURIComponent(
      JSON.stringify({ caseStatus: 'in(READY_TO_SUBMIT,REJECTED_BY_XIFIN)', assigneeName: 'in(Bea Biller)' }),
    );
    const body = (await get('admin', `/bis/api/v1/billingCases?filter=${filter}&facets=true`)).json();
    expect(body.content.map((c: any) => c.testId)).toEqual(['T-2', 'T-1']);
    const facets = Object.fromEntries(body.facets.map((f: any) => [f.name, f.items]));
    expect(Object.keys(facets).sort()).toEqual([
      'assignee_name_facet',
      'case_status_facet',
      'review_status_facet',
      'test_status_facet',
      'test_type_facet',
    ]);
    // a facet ignores its own filter: every case status of Bea's cases is offered
    expect(facets.case_status_facet).toEqual(
      expect.arrayContaining([
        { value: 'READY_TO_SUBMIT', count: 1 },
        { value: 'REJECTED_BY_XIFIN', count: 1 },
      ]),
    );
    expect(facets.assignee_name_facet).toEqual([{ value: 'Bea Biller', count: 2 }]);

    const byAccount = encodeURIComponent(JSON.stringify({ accountId: 'acc-B' }));
    expect(
      (await get('admin', `/bis/api/v1/billingCases?filter=${byAccount}`))
        .json()
        .content.map((c: any) => c.testId),
    ).toEqual(['T-3']);
    const q = (await get('admin', '/bis/api/v1/billingCases?q=TRF-3')).json();
    expect(q.content.map((c: any) => c.testId)).toEqual(['T-3']);
  });

  it('speaks the ra-data-simple-rest dialect', async () => {
    const res = await get('admin', `/bis/api/v1/billingCases?range=${encodeURIComponent('[0,1]')}`);
    expect(res.headers['content-range']).toBe('billingCases 0-1/4');
    expect(res.json()).toHaveLength(2);
    const facets = (await get('admin', '/bis/api/v1/billingCases/facets?facets=test_type_facet')).json();
    expect(facets.content).toEqual([
      {
        name: 'test_type_facet',
        items: [
          { value: 'NEXT_DX', count: 3 },
          { value: 'NEXT_PERSONAL_DX', count: 1 },
        ],
      },
    ]);
  });
});

describe("billing: the outbox relay's scan of billing_cases (DocumentDB)", () => {
  let billing: BillingModule;
  const { sys } = useTestSystem({
    prepare: async () => {
      billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
      await billing.models.BillingCase.init();
    },
    timeout: 120_000,
  });

  it("reads only the cases with pending events, through the sparse index on 'outbox.0'", async () => {
    const coll = billing.models.BillingCase.collection;
    const entry = (n: number) => ({
      id: `e-${n}`,
      topic: 'billing-case',
      key: `bc-${n}`,
      type: 'billing-case.changed',
      value: '{}',
      createdOn: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
      attempts: 0,
    });
    // 3,000 cases, 20 of them with an event waiting (the relay's query, events/src/outbox.ts passCollection)
    await coll.insertMany(
      Array.from({ length: 3000 }, (_, n) => ({
        _id: `bc-${n}`,
        testOrderId: `to-${n}`,
        caseStatus: 'ACCEPTED_BY_XIFIN',
        caseHistory: [],
        outbox: n % 150 === 0 ? [entry(n)] : [],
        deleted: false,
        version: 0,
      })) as never[],
    );
    const query = () =>
      coll
        .find({ 'outbox.0': { $exists: true } }, { projection: { outbox: 1 } })
        .sort({ 'outbox.0.createdOn': 1, _id: 1 })
        .limit(100);
    expect((await query().toArray()).map((d) => d._id)).toEqual(
      Array.from({ length: 20 }, (_, k) => `bc-${k * 150}`),
    );
    // the planner's choice: an index scan of the sparse index, not a scan of every case
    const plan = JSON.stringify((await query().explain()).queryPlanner.winningPlan);
    expect(plan).toContain('"stage":"IXSCAN"');
    expect(plan).toContain('"indexName":"outbox.0_1"');
    expect(plan).not.toContain('COLLSCAN');
  });
});
