import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayStandin, type GatewayStandin } from './gateway-standin';
import { qualifiedCase } from '../../test/fixtures';
import type { BillingCaseDoc } from '../models';
import {
  gatewayDir,
  removeGatewayDir,
  startSubmissionSystem,
  type SubmissionTestSystem,
} from '../../test/submission-system';

const BACKOFF_MS = 300;
const ATTEMPTS = 8; // waits 0.3 + 0.6 + 1.2 + 2.4 + 4.8 + 9.6 + 19.2 s: ~38 s of retries before RETRY_FAILED
const CASES = 20;

/**
 * The billing system down for a while (issue 13 "Bad input and faults"), on the real services: a burst of cases is
 * submitted while nothing listens on the gateway's port (connection refused), then the gateway answers 503 for a
 * while, then it is back. No submission is lost: every case retries on the exponential backoff and ends
 * ACCEPTED_BY_XIFIN with exactly one claim at the gateway. (The production defaults, 6 attempts from 30 s, ride out
 * about 15 minutes; this test scales the backoff down.)
 */
describe('billing submission: the billing system down, then back (real Redis, the store, Kafka)', () => {
  let t: SubmissionTestSystem;
  let gateway: GatewayStandin | null = null;
  const dir = gatewayDir('outage');
  let port = 0;

  beforeAll(async () => {
    // find a free port for the gateway, then leave it closed: the billing system is down
    const probe = await startGatewayStandin({ dir });
    port = probe.port;
    await probe.close();
    t = await startSubmissionSystem(`http://127.0.0.1:${port}`, {
      BILLING_SUBMIT_BACKOFF_MS: String(BACKOFF_MS),
      BILLING_SUBMIT_ATTEMPTS: String(ATTEMPTS),
      BILLING_GATEWAY_TIMEOUT_MS: '2000',
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gateway?.close();
    removeGatewayDir(dir);
  });

  it('a burst submitted while it is down: retries on the backoff, every case accepted once when it is back', async () => {
    const docs = await t.billing.BillingCase.insertMany(
      Array.from({ length: CASES }, (_, n) => qualifiedCase('out', n)),
    );
    const ids = docs.map((d) => String(d._id));
    await t.submit(ids);

    // down: connection refused; every case goes to RETRY_SCHEDULED with the reason
    const scheduled = await t.casesWhen(
      ids,
      (d) => d.caseHistory.some((e) => e.status === 'RETRY_SCHEDULED'),
      'every case scheduled for a retry',
      { timeoutMs: 30_000 },
    );
    expect(scheduled[0].caseHistory.find((e) => e.status === 'RETRY_SCHEDULED')!.errorDetails).toMatch(
      /could not be reached/,
    );
    // still down at the first retry: every case scheduled again
    const retried = (d: BillingCaseDoc) => d.caseHistory.filter((e) => e.status === 'RETRY_SCHEDULED').length;
    await t.casesWhen(ids, (d) => retried(d) >= 2, 'every case scheduled for a second retry', {
      timeoutMs: 30_000,
    });
    // up but unavailable (503) until every case has been answered so once, then back
    gateway = await startGatewayStandin({ dir, port });
    gateway.setDown(true);
    await t.casesWhen(
      ids,
      (d) =>
        d.caseHistory.some(
          (e) => e.status === 'RETRY_SCHEDULED' && !/could not be reached/.test(e.errorDetails ?? ''),
        ),
      'every case scheduled for a retry after the unavailable answer',
      { timeoutMs: 30_000 },
    );
    gateway.setDown(false);

    const done = await t.casesWhen(ids, (d) => d.caseStatus === 'ACCEPTED_BY_XIFIN', 'every case accepted', {
      timeoutMs: 90_000,
      intervalMs: 500,
    });
    for (const d of done) {
      const statuses = d.caseHistory.map((e) => e.status);
      expect(statuses.slice(0, 3)).toEqual([
        'QUEUED_FOR_SUBMISSION',
        'SUBMITTED_TO_XIFIN',
        'RETRY_SCHEDULED',
      ]);
      expect(statuses.slice(-2)).toEqual(['RETRY_SUCCEEDED', 'ACCEPTED_BY_XIFIN']);
      expect(d.submission!.attempts).toBeLessThanOrEqual(ATTEMPTS);
      // the backoff: the n-th retry starts no sooner than BACKOFF_MS * 2^(n-1) after its RETRY_SCHEDULED
      let retry = 0;
      for (let i = 1; i < d.caseHistory.length; i++) {
        if (d.caseHistory[i].status !== 'RETRY_IN_PROGRESS') continue;
        retry += 1;
        const waited = +new Date(d.caseHistory[i].createdOn) - +new Date(d.caseHistory[i - 1].createdOn);
        expect(d.caseHistory[i - 1].status).toBe('RETRY_SCHEDULED');
        expect(waited).toBeGreaterThanOrEqual(BACKOFF_MS * 2 ** (retry - 1) - 50);
      }
      expect(retry).toBeGreaterThanOrEqual(2);
      // exactly one claim at the billing system for the case
      expect(gateway!.claims().filter((c) => c.key.startsWith(`${d._id}:`))).toHaveLength(1);
    }
    expect(gateway!.claims()).toHaveLength(CASES);
  }, 150_000);
});
