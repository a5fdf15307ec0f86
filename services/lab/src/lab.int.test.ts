import { describe, expect, it } from 'vitest';
import type { App } from '@onco/platform';
import { user, useTestSystem } from '@onco/testing';
import { createLabModule, type LabModule, type TestOrderDoc } from './index';

describe('lab: models and GET /oms/api/v1/testOrders (real store)', () => {
  let lab: LabModule;
  let app: App;

  // seed rows (partial on purpose: the schema fills the defaults)
  const order = (n: number, over: Record<string, unknown>): TestOrderDoc =>
    ({
      testOrderId: `T-${n}`,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'TEST_ORDERED',
      updatedOn: new Date(Date.UTC(2025, 0, n)),
      testOrderForm: {
        id: `tof-${n}`,
        testRequisitionId: `TRF-${n}`,
        account: { id: 'acc-A', name: 'Alpha Oncology' },
        physician: { id: 'phy-1', name: 'Dr. One' },
        hospitalLocation: { id: 'loc-1', name: 'Alpha Main' },
        patient: { id: `pat-${n}`, name: `Patient ${n}`, userId: `PAT-${n}` },
      },
      ...over,
    }) as unknown as TestOrderDoc;

  const { sys, h } = useTestSystem({
    prepare: async () => {
      lab = createLabModule(sys.ctx);
      app = sys.app; // the area is mounted by the system like in production
      await Promise.all(Object.values(lab.models).map((m) => m.init()));
      const { TestOrder } = lab.models;
      await TestOrder.create([
        order(1, {}),
        order(2, { status: 'IN_PROGRESS', testType: 'NEXT_PERSONAL_DX', orderType: 'SUBSEQUENT_ORDER' }),
        order(3, { status: 'TEST_SELECTED' }),
        order(4, {
          status: 'REPORT_COMPLETE',
          testOrderForm: {
            id: 'tof-4',
            account: { id: 'acc-B', name: 'Beta Clinic' },
            physician: { id: 'phy-2', name: 'Dr. Two' },
          },
        }),
        order(5, { deleted: true }),
        order(6, {
          status: 'CANCELLED',
          testOrderForm: {
            id: 'tof-6',
            account: { id: 'acc-C', name: 'Gamma' },
            physician: { id: 'phy-1', name: 'Dr. One' },
          },
        }),
      ]);
    },
    users: {
      npi: user('ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
      admin: 'ROLE_ADMINISTRATOR',
      patient: user('ROLE_PATIENT', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
      physician: user('ROLE_PHYSICIAN', { account: { id: 'acc-Z', name: 'Zeta' }, physicianId: 'phy-1' }),
    },
  });

  const get = (who: keyof typeof h, url: string) => app.inject({ method: 'GET', url, headers: h[who] });

  it('creates the tests-list indexes on the server', async () => {
    const keys = (await lab.models.TestOrder.collection.indexes()).map((i) => JSON.stringify(i.key));
    for (const k of [
      { status: 1, updatedOn: -1 },
      { 'testOrderForm.account.id': 1 },
      { 'testOrderForm.physician.id': 1 },
      { testType: 1 },
      { orderType: 1 },
    ]) {
      expect(keys).toContain(JSON.stringify(k));
    }
    expect((await lab.models.Sample.collection.indexes()).map((i) => JSON.stringify(i.key))).toContain(
      JSON.stringify({ 'testOrderForm.id': 1 }),
    );
    expect(lab.outboxCollections).toEqual(['test_orders', 'samples', 'sample_manifests']);
  });

  it('needs VIEW_TESTS_PAGE', async () => {
    expect((await app.inject({ method: 'GET', url: '/oms/api/v1/testOrders' })).statusCode).toBe(401);
    expect((await get('patient', '/oms/api/v1/testOrders')).statusCode).toBe(403);
  });

  it('scopes to the user accounts, hides TEST_SELECTED and deleted tests, newest first', async () => {
    const res = await get('npi', '/oms/api/v1/testOrders');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(2);
    expect(body.content.map((t: any) => t.testOrderId)).toEqual(['T-2', 'T-1']);
    expect(body.content[0]).toMatchObject({
      id: expect.any(String),
      testOrderForm: { account: { id: 'acc-A' } },
    });
    expect(body.content[0]).not.toHaveProperty('outbox');
    expect(body.content[0]).not.toHaveProperty('_id');
  });

  it('scopes a physician to their own tests across accounts', async () => {
    const body = (await get('physician', '/oms/api/v1/testOrders')).json();
    expect(body.content.map((t: any) => t.testOrderId).sort()).toEqual(['T-1', 'T-2', 'T-6']);
  });

  it('shows TEST_SELECTED when the client filters by status, and lab staff see every account', async () => {
    const filter = encodeURIComponent(JSON.stringify({ status: 'in(TEST_SELECTED)' }));
    const sel = (await get('npi', `/oms/api/v1/testOrders?filter=${filter}`)).json();
    expect(sel.content.map((t: any) => t.testOrderId)).toEqual(['T-3']);
    const all = (await get('admin', '/oms/api/v1/testOrders?perPage=50')).json();
    expect(all.totalElements).toBe(4);
  });

  it('returns the three facets, and speaks the ra-data-simple-rest dialect', async () => {
    const body = (
      await get('admin', '/oms/api/v1/testOrders?facets=test_status_facet,test_type_facet,order_type_facet')
    ).json();
    const facets = Object.fromEntries(body.facets.map((f: any) => [f.name, f.items]));
    expect(facets.test_status_facet).toEqual(
      expect.arrayContaining([
        { value: 'TEST_ORDERED', count: 1 },
        { value: 'IN_PROGRESS', count: 1 },
        { value: 'REPORT_COMPLETE', count: 1 },
        { value: 'CANCELLED', count: 1 },
      ]),
    );
    expect(facets.test_type_facet).toEqual([
      { value: 'NEXT_DX', count: 3 },
      { value: 'NEXT_PERSONAL_DX', count: 1 },
    ]);
    expect(facets.order_type_facet).toEqual([
      { value: 'INITIAL_ORDER', count: 3 },
      { value: 'SUBSEQUENT_ORDER', count: 1 },
    ]);
    const only = (await get('admin', '/oms/api/v1/testOrders/facets?facets=test_type_facet')).json();
    expect(only.content.map((f: any) => f.name)).toEqual(['test_type_facet']);

    const res = await get(
      'admin',
      `/oms/api/v1/testOrders?range=${encodeURIComponent('[0,1]')}&sort=${encodeURIComponent('["updatedOn","ASC"]')}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('testOrders 0-1/4');
    expect(res.json().map((t: any) => t.testOrderId)).toEqual(['T-1', 'T-2']);
  });

  it('rejects unknown filters and facets with a 400', async () => {
    const bad = encodeURIComponent(JSON.stringify({ secret: 'x' }));
    expect((await get('admin', `/oms/api/v1/testOrders?filter=${bad}`)).statusCode).toBe(400);
    expect((await get('admin', '/oms/api/v1/testOrders?facets=nope')).statusCode).toBe(400);
  });

  it('keeps sample groups unique by sampleGroupId', async () => {
    const { SampleGroup, Sample } = lab.models;
    const s = await Sample.create({
      type: 'TUMOR',
      status: 'PROCEED',
      testOrderForm: { id: 'tof-1' },
      patient: { id: 'pat-1', dateOfBirth: '1970-01-02' },
    });
    await SampleGroup.create({ sampleGroupId: 'SG-1', tumors: [s._id], testOrderForm: { id: 'tof-1' } });
    await expect(SampleGroup.create({ sampleGroupId: 'SG-1' })).rejects.toMatchObject({ code: 11000 });
  });
});
