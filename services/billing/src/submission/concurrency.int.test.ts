import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, createUser, login } from '../../../server/src/test-helper';
import { waitFor } from '../../../../events/src/int-test-support';
import { billingModels, type BillingCaseDoc, type BillingModels } from '../models';
import { startGatewayStandin, type GatewayStandin } from './gateway-standin';
import { importIcd10Fixture, qualifiedCase } from './test-fixtures';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

const CONCURRENCY = 3;
const CASES = 9;

/**
 * BILLING_SUBMIT_CONCURRENCY on the real services: the billing system never has more claims in flight from one
 * worker process than configured. The stand-in answers each claim (billing codes starting SLOW) after 1.5 s, so
 * a burst of 9 keeps every slot busy.
 */
describe('billing submission: claims in flight follow BILLING_SUBMIT_CONCURRENCY (real Redis, the store)', () => {
  let sys: Sys;
  let billing: BillingModels;
  let gateway: GatewayStandin;
  let dir = '';
  let authorization = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'billing-gateway-concurrency-'));
    gateway = await startGatewayStandin({ dir, slowMs: 1500 });
    sys = await createTestSystem({
      WORKERS: 'true',
      BILLING_GATEWAY_URL: gateway.url,
      BILLING_SUBMIT_CONCURRENCY: String(CONCURRENCY),
    });
    await importIcd10Fixture(sys.ctx.mongo);
    billing = billingModels(sys.ctx.mongo);
    const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
    authorization = (await login(sys, admin.loginId)).authorization;
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`a burst of ${CASES} slow claims: exactly ${CONCURRENCY} at a time at the billing system, every one accepted once`, async () => {
    const ids: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const doc = await billing.BillingCase.create(qualifiedCase('conc', n, { billingCode: `SLOW-${n}` }));
      ids.push(doc._id as string);
    }
    const res = await sys.app.inject({
      method: 'POST',
      url: '/bis/api/v1/billing/submit',
      headers: { authorization },
      payload: ids,
    });
    expect(res.statusCode, res.body).toBe(200);
    await waitFor(
      async () => {
        const docs = await billing.BillingCase.find({ _id: { $in: ids } })
          .lean<BillingCaseDoc[]>()
          .exec();
        return docs.every((d) => d.caseStatus === 'ACCEPTED_BY_XIFIN') ? docs : null;
      },
      { what: 'every case accepted', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(gateway.inFlight()).toEqual({ now: 0, max: CONCURRENCY });
    expect(gateway.claims()).toHaveLength(CASES);
  }, 90_000);
});
