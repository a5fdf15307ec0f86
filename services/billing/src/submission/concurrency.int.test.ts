import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStandin, type GatewayStandin } from './gateway-standin';
import { qualifiedCase } from '../../test/fixtures';
import {
  gatewayDir,
  removeGatewayDir,
  startSubmissionSystem,
  type SubmissionTestSystem,
} from '../../test/submission-system';

const CONCURRENCY = 3;
const CASES = 9;

/**
 * BILLING_SUBMIT_CONCURRENCY on the real services: the billing system never has more claims in flight from one
 * worker process than configured. The stand-in answers each claim (billing codes starting SLOW) after 1.5 s, so
 * a burst of 9 keeps every slot busy.
 */
describe('billing submission: claims in flight follow BILLING_SUBMIT_CONCURRENCY (real Redis, the store)', () => {
  let t: SubmissionTestSystem;
  let gateway: GatewayStandin;
  const dir = gatewayDir('concurrency');

  beforeAll(async () => {
    gateway = await startGatewayStandin({ dir, slowMs: 1500 });
    t = await startSubmissionSystem(gateway.url, { BILLING_SUBMIT_CONCURRENCY: String(CONCURRENCY) });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gateway?.close();
    removeGatewayDir(dir);
  });

  it(`a burst of ${CASES} slow claims: exactly ${CONCURRENCY} at a time at the billing system, every one accepted once`, async () => {
    const docs = await t.billing.BillingCase.insertMany(
      Array.from({ length: CASES }, (_, n) => qualifiedCase('conc', n, { billingCode: `SLOW-${n}` })),
    );
    const ids = docs.map((d) => String(d._id));
    await t.submit(ids);
    await t.casesWhen(ids, (d) => d.caseStatus === 'ACCEPTED_BY_XIFIN', 'every case accepted');
    expect(gateway.inFlight()).toEqual({ now: 0, max: CONCURRENCY });
    expect(gateway.claims()).toHaveLength(CASES);
  }, 90_000);
});
