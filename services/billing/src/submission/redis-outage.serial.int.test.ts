/**
 * Redis restarted during a burst of billing submissions (issue 13 "Bad input and faults"): every queued case is
 * still submitted exactly once. Two faults, one batch each:
 * - Redis stopped and started (scripts/infra.sh restart redis) while the worker sends: the jobs are in Redis's
 *   append-only file and snapshot, the workers reconnect, jobs that were active when it stopped are stalled and
 *   re-run; the claim's Idempotency-Key keeps a re-sent claim one claim.
 * - Redis losing the queue's data outright (its keys deleted mid-burst, as after a crash without persistence): the
 *   requeue sweep (BILLING_REQUEUE_INTERVAL_MS) gives every case still being sent its job back.
 * Restarts the real Redis, so it runs alone (the `serial` project).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infra, sleep, waitFor } from '../../../../events/src/int-test-support';
import { createTestSystem, createUser, login } from '../../../server/src/test-helper';
import { billingModels, type BillingCaseDoc, type BillingModels } from '../models';
import { startGatewayStandin, type GatewayStandin } from './gateway-standin';
import { importIcd10Fixture, qualifiedCase } from './test-fixtures';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

const BATCH = 150;

describe('billing submissions while Redis restarts or loses its data (real Redis, the store, Kafka)', () => {
  let sys: Sys;
  let billing: BillingModels;
  let gateway: GatewayStandin;
  let dir = '';
  let authorization = '';
  let redisStopped = false;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'billing-gateway-redis-'));
    // every claim's first answer takes 400 ms, so a batch keeps the 16 workers busy for a few seconds
    gateway = await startGatewayStandin({ dir, slowMs: 400 });
    sys = await createTestSystem({
      WORKERS: 'true',
      BILLING_GATEWAY_URL: gateway.url,
      BILLING_SUBMIT_BACKOFF_MS: '500',
      BILLING_SUBMIT_ATTEMPTS: '8',
      BILLING_GATEWAY_TIMEOUT_MS: '5000',
      BILLING_REQUEUE_INTERVAL_MS: '2000',
    });
    await importIcd10Fixture(sys.ctx.mongo);
    billing = billingModels(sys.ctx.mongo);
    const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
    authorization = (await login(sys, admin.loginId)).authorization;
  }, 180_000);
  afterAll(async () => {
    if (redisStopped) await infra('start', 'redis').catch((err) => console.error(err));
    await sys?.close();
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 180_000);

  /** A batch of qualified cases, submitted in one bulk call; their ids. */
  async function submitBatch(tag: string): Promise<string[]> {
    const docs = await billing.BillingCase.insertMany(
      Array.from({ length: BATCH }, (_, n) => qualifiedCase(tag, n, { billingCode: `SLOW-${tag}-${n}` })),
    );
    const ids = docs.map((d) => String(d._id));
    const res = await sys.app.inject({
      method: 'POST',
      url: '/bis/api/v1/billing/submit',
      headers: { authorization },
      payload: ids,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().submitted).toBe(BATCH);
    return ids;
  }

  const accepted = (ids: string[]) =>
    billing.BillingCase.countDocuments({ _id: { $in: ids }, caseStatus: 'ACCEPTED_BY_XIFIN' }).exec();

  /** Every case accepted, in its first generation, with exactly one claim at the billing system. */
  async function expectEachOnce(ids: string[], what: string) {
    const docs = await waitFor(
      async () => {
        const all = await billing.BillingCase.find({ _id: { $in: ids } })
          .lean<BillingCaseDoc[]>()
          .exec();
        return all.every((d) => d.caseStatus === 'ACCEPTED_BY_XIFIN') ? all : null;
      },
      { what, timeoutMs: 150_000, intervalMs: 1_000 },
    );
    const claims = gateway.claims();
    for (const d of docs) {
      expect(d.submission!.generation).toBe(1);
      expect(claims.filter((c) => c.key.startsWith(`${d._id}:`)).map((c) => c.key)).toEqual([`${d._id}:1`]);
    }
  }

  it('Redis stopped and started mid-burst: every case submitted exactly once', async () => {
    const ids = await submitBatch('restart');
    await waitFor(async () => ((await accepted(ids)) >= 10 ? true : null), {
      what: 'the burst under way',
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    expect(await accepted(ids)).toBeLessThan(BATCH);
    redisStopped = true;
    await infra('restart', 'redis');
    redisStopped = false;
    await expectEachOnce(ids, 'every case of the restart batch accepted');
  }, 240_000);

  it("Redis losing the queue's data mid-burst: the requeue sweep gives the jobs back, each claim once", async () => {
    const ids = await submitBatch('lost');
    await waitFor(async () => ((await accepted(ids)) >= 10 ? true : null), {
      what: 'the burst under way',
      timeoutMs: 60_000,
      intervalMs: 100,
    });
    // every key of this system's billing-submit queue is gone (jobs waiting, active, delayed)
    const pattern = `${sys.config.QUEUE_PREFIX}:billing-submit:*`;
    let deleted = 0;
    for (;;) {
      const keys: string[] = [];
      const stream = sys.ctx.redis.scanStream({ match: pattern, count: 1000 });
      for await (const batch of stream) keys.push(...(batch as string[]));
      if (!keys.length) break;
      deleted += await sys.ctx.redis.del(...keys);
      await sleep(50);
      if (deleted > 0) break;
    }
    expect(deleted).toBeGreaterThan(0);
    expect(await accepted(ids)).toBeLessThan(BATCH);
    await expectEachOnce(ids, 'every case of the lost batch accepted');
  }, 240_000);
});
