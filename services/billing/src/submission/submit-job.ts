import { IN_FLIGHT_CASE_STATUSES, type BillingCaseStatus } from '@onco/domain';
import type { BillingCaseDoc } from '../models';

/**
 * The `billing-submit` queue (design.md rule 8): one job per submission of a billing case, which sends the claim
 * to the billing system (BILLING_GATEWAY_URL, contract in docs/billing-gateway.md) and records its answer.
 *
 * - Job id `billing-submit-<caseId>-<generation>`: a duplicate add is a no-op; each Submit starts a generation.
 * - `exec` re-reads the case and stops (completes, sends nothing) when it is gone, of another generation, or no
 *   longer in a sending status (QUEUED_FOR_SUBMISSION, SUBMITTED_TO_XIFIN, RETRY_SCHEDULED, RETRY_IN_PROGRESS,
 *   RETRY_SUCCEEDED: the last three and SUBMITTED_TO_XIFIN are where a crash between send and record leaves it).
 *   The common case, a first send of a case Submit queued, reads nothing first: its SUBMITTED_TO_XIFIN write is
 *   conditional on that state (and on what the job says Submit saw, `queued`) and returns the case as written, so a
 *   claim costs the worker two writes on the store (that one, and the answer's), not a read more. Each write
 *   commits with its audit entry (actor `system`) in one transaction (writes.ts).
 * - The claim carries `Idempotency-Key: <caseId>:<generation>`, so a re-run job (a crash after sending, a stalled
 *   job) gets the stored answer back and never makes a second claim.
 * - First attempt: QUEUED_FOR_SUBMISSION -> SUBMITTED_TO_XIFIN -> the answer's status. A transient failure
 *   (payor system down, a timeout, a network error, a 5xx, 408 or 429) -> RETRY_SCHEDULED and the job throws, so
 *   BullMQ retries with exponential backoff (BILLING_SUBMIT_ATTEMPTS, BILLING_SUBMIT_BACKOFF_MS); the next attempt
 *   RETRY_IN_PROGRESS -> RETRY_SUCCEEDED -> the answer's status, or after the last attempt RETRY_FAILED.
 * - Any other 4xx is permanent (not retried): the claim is REJECTED_BY_XIFIN with the refusal as error details.
 * - Every step is one conditional write (changeCase, or markSubmitted for the first send): the status, a history
 *   entry and the billing-case event, committed before the next step starts. SUBMITTED_TO_XIFIN is committed
 *   before the claim leaves, so a case whose claim may be at the billing system says so (the kill test).
 */
export const BILLING_SUBMIT_QUEUE = 'billing-submit';

/**
 * How many billing-submit jobs one worker runs at once for `claimsInFlight` (BILLING_SUBMIT_CONCURRENCY) claims
 * in flight: a quarter more, so that while every connection to the billing system carries a claim, other jobs
 * record their answers or mark their cases SUBMITTED_TO_XIFIN (two writes to the store a claim, ~15 ms each under
 * load, which would otherwise leave a connection idle). The gateway client still sends at most `claimsInFlight`
 * claims at once; a job past them waits for a connection after its case is marked. docs/decisions.md (Billing).
 */
export const submitJobSlots = (claimsInFlight: number) => claimsInFlight + Math.ceil(claimsInFlight / 4);

export interface BillingSubmitJobData {
  caseId: string;
  generation: number;
  /**
   * What the case held when Submit queued it, as far as its billing-case events say: the first send's
   * SUBMITTED_TO_XIFIN write is conditional on these (and on QUEUED_FOR_SUBMISSION of this generation), so it is
   * written, with its event, and the case read back in one command. Absent (jobs added before it existed) or no
   * longer matching: the job reads the case first.
   */
  queued?: Pick<BillingCaseDoc, 'testOrderId' | 'testOrderFormId' | 'billingCode'>;
}

export interface BillingSubmitResult {
  outcome: 'answered' | 'retry-failed' | 'skipped';
  status?: BillingCaseStatus;
  reason?: 'missing' | 'stale' | 'not-sending';
}

/** A case as far as its billing-submit job needs it. */
export type QueuedCase = Pick<
  BillingCaseDoc,
  '_id' | 'submission' | 'testOrderId' | 'testOrderFormId' | 'billingCode'
>;

/** The billing-submit job of a case in QUEUED_FOR_SUBMISSION (or being sent), for its current generation. */
export const submitJobData = (c: QueuedCase): BillingSubmitJobData => ({
  caseId: c._id,
  generation: c.submission!.generation,
  queued: {
    testOrderId: c.testOrderId,
    testOrderFormId: c.testOrderFormId ?? null,
    billingCode: c.billingCode ?? null,
  },
});

/** BullMQ job ids may not contain ':' */
export const billingSubmitJobId = (caseId: string, generation: number) =>
  `billing-submit-${caseId}-${generation}`;

/** The statuses a submission of the case's current generation may be found in by its job. */
export const SENDING: readonly BillingCaseStatus[] = IN_FLIGHT_CASE_STATUSES;
export const RETRYING: readonly BillingCaseStatus[] = [
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];

/** A transient failure: the job throws it so that BullMQ retries after the backoff. */
export class SubmissionRetry extends Error {}
