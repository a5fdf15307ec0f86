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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { infra, sleep, waitFor } from '@onco/testing';
import { startGatewayStandin, type GatewayStandin } from './gateway-standin';
import { qualifiedCase } from '../../test/fixtures';
import {
  gatewayDir,
  removeGatewayDir,
  startSubmissionSystem,
  type SubmissionTestSystem,
} from '../../test/submission-system';

const BATCH = 150;

describe('billing submissions while Redis restarts or loses its data (real Redis, the store, Kafka)', () => {
  let t: SubmissionTestSystem;
  let gateway: GatewayStandin;
  const dir = gatewayDir('redis');
  let redisStopped = false;

  beforeAll(async () => {
    // every claim's first answer takes 400 ms, so a batch keeps the 16 workers busy for a few seconds
    gateway = await startGatewayStandin({ dir, slowMs: 400 });
    t = await startSubmissionSystem(gateway.url, {
      BILLING_SUBMIT_BACKOFF_MS: '500',
      BILLING_SUBMIT_ATTEMPTS: '8',
      BILLING_GATEWAY_TIMEOUT_MS: '5000',
      BILLING_REQUEUE_INTERVAL_MS: '2000',
    });
  }, 180_000);
  afterAll(async () => {
    if (redisStopped) await infra('start', 'redis').catch((err) => console.error(err));
    await t?.close();
    await gateway?.close();
    removeGatewayDir(dir);
  }, 180_000);

  /** A batch of qualified cases, submitted in one bulk call; their ids. */
  async function submitBatch(tag: string): Promise<string[]> {
    const docs = await t.billing.BillingCase.insertMany(
      Array.from({ length: BATCH }, (_, n) => qualifiedCase(tag, n, { billingCode: `SLOW-${tag}-${n}` })),
    );
    const ids = docs.map((d) => String(d._id));
    await t.submit(ids);
    return ids;
  }

  const accepted = (ids: string[]) =>
    t.billing.BillingCase.countDocuments({ _id: { $in: ids }, caseStatus: 'ACCEPTED_BY_XIFIN' }).exec();

  /** Every case accepted, in its first generation, with exactly one claim at the billing system. */
  async function expectEachOnce(ids: string[], what: string) {
    const docs = await t.casesWhen(ids, (d) => d.caseStatus === 'ACCEPTED_BY_XIFIN', what, {
      timeoutMs: 150_000,
      intervalMs: 1_000,
    });
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
    const pattern = `${t.sys.config.QUEUE_PREFIX}:billing-submit:*`;
    let deleted = 0;
    for (;;) {
      const keys: string[] = [];
      const stream = t.sys.ctx.redis.scanStream({ match: pattern, count: 1000 });
      for await (const batch of stream) keys.push(...(batch as string[]));
      if (!keys.length) break;
      deleted += await t.sys.ctx.redis.del(...keys);
      await sleep(50);
      if (deleted > 0) break;
    }
    expect(deleted).toBeGreaterThan(0);
    expect(await accepted(ids)).toBeLessThan(BATCH);
    await expectEachOnce(ids, 'every case of the lost batch accepted');
  }, 240_000);
});
