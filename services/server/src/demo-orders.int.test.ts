import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityModels } from '@onco/identity';
import { createTestSystem, login } from '@onco/testing';
import { seedDemo, demoLogin } from './seed';
import { seedDemoOrders } from './demo-orders';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

describe('demo orders (DEMO_MODE): submitted through the real API, once', () => {
  let sys: Sys;
  beforeAll(async () => {
    sys = await createTestSystem({ DEMO_MODE: 'true' });
    await seedDemo(sys.ctx);
  });
  afterAll(async () => sys?.close());

  it('the demo provider has submitted orders and drafts to look at, and seeding again adds nothing', async () => {
    const first = await seedDemoOrders(sys.app, sys.ctx, sys.config);
    expect(first).toEqual({ submitted: 5, drafts: 2 });
    const { authorization } = await login(sys, demoLogin('ROLE_NPI'), sys.config.DEMO_PASSWORD);
    const list = (status: string) =>
      sys.app.inject({
        method: 'GET',
        url: `/portal/api/v1/testOrderForms?filter=${encodeURIComponent(JSON.stringify({ status }))}&size=50`,
        headers: { authorization },
      });
    const submitted = (await list('SUBMITTED')).json();
    expect(submitted.totalElements).toBe(5);
    expect(submitted.content.every((r: any) => /^TRF-\d{6}$/.test(r.testRequisitionId))).toBe(true);
    expect((await list('DRAFT')).json().totalElements).toBe(2);
    // each order's diagnosis is its patient's own (a demo woman had prostate cancer on her order)
    const patients = new Map(
      (await sys.ctx.mongo.collection('patients').find({}).toArray()).map((p) => [
        String(p._id),
        p.diagnosis,
      ]),
    );
    for (const r of submitted.content) {
      const own = patients.get(String(r.patient?.id));
      if (own && own !== 'OTHER') expect(r.tumorSpecimen?.diagnosis, r.testRequisitionId).toBe(own);
    }
    expect(await seedDemoOrders(sys.app, sys.ctx, sys.config)).toEqual({ submitted: 0, drafts: 0 });
  });

  it('demo users have capitalised names (the profile menu shows "Demo P.", not "Demo p.")', async () => {
    const u = await identityModels(sys.ctx.mongo)
      .User.findOne({ loginId: demoLogin('ROLE_PORTAL_ADMIN') })
      .lean()
      .exec();
    expect(u).toMatchObject({ firstName: 'Demo', lastName: 'Portal Admin' });
  });
});
