import type { Job } from 'bullmq';
import type { BillingCaseStatus } from '@onco/domain';
import type { PlatformContext } from '@onco/platform';
import { withOutbox } from '@onco/events';
import type { mongo } from 'mongoose';
import {
  billingCaseEvent,
  changeCase,
  historyEntry,
  SYSTEM_ACTOR,
  type CaseDecision,
  type CaseWriter,
} from '../case-service';
import type { BillingCaseDoc, BillingModels, BillingSubmission } from '../models';
import { buildClaim, claimKey } from './claim';
import { createGatewayClient, type GatewayReply } from './gateway-client';

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
 *   claim costs the worker two commands on the store (that write, and the answer's), not three.
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
/** How many cases being sent the requeue sweep checks in one round trip to Redis. */
const REQUEUE_PAGE = 500;

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
const SENDING: readonly BillingCaseStatus[] = [
  'QUEUED_FOR_SUBMISSION',
  'SUBMITTED_TO_XIFIN',
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];
const RETRYING: readonly BillingCaseStatus[] = ['RETRY_SCHEDULED', 'RETRY_IN_PROGRESS', 'RETRY_SUCCEEDED'];

/** The billing system's final answers and the case status each sets. */
const ANSWER_STATUS: Record<string, BillingCaseStatus> = {
  ACCEPTED: 'ACCEPTED_BY_XIFIN',
  PARTIALLY_ACCEPTED: 'PARTIALLY_ACCEPTED',
  REJECTED: 'REJECTED_BY_XIFIN',
  DUPLICATE_ACCESSION: 'DUPLICATE_ACCESSION',
  UPDATE_NOT_ALLOWED: 'UPDATE_NOT_ALLOWED',
};

const MAX_DETAILS = 10_000;
const clip = (s: string) => (s.length > MAX_DETAILS ? `${s.slice(0, MAX_DETAILS - 1)}…` : s);

type SendResult =
  | { kind: 'final'; status: BillingCaseStatus; errorDetails: string | null }
  | { kind: 'transient'; error: string };

/** A transient failure: the job throws it so that BullMQ retries after the backoff. */
export class SubmissionRetry extends Error {}

export interface BillingSubmitQueue {
  name: typeof BILLING_SUBMIT_QUEUE;
  /** queue one submission under its deterministic job id */
  add(data: BillingSubmitJobData): Promise<Job<BillingSubmitJobData>>;
  /** queue several at once (one round trip to Redis), each under its deterministic job id */
  addMany(data: BillingSubmitJobData[]): Promise<void>;
  exec(job: Pick<Job<BillingSubmitJobData>, 'data' | 'attemptsMade' | 'opts'>): Promise<BillingSubmitResult>;
  /**
   * Make sure every case being sent has its job (run where the workers start): a case whose job is missing (its
   * add failed after the case was queued, or Redis lost its data) gets it again, and a job that failed on an
   * unexpected error (the store down on its last attempt) is retried. Safe to run any time: job ids are
   * deterministic, and a job re-reads its case and sends under the same Idempotency-Key. Returns how many jobs it
   * added or retried.
   */
  requeue(): Promise<number>;
  /** close the gateway client's idle connections (after the workers stopped) */
  close(): void;
}

function errorText(errors: unknown): string | null {
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return clip(
    errors
      .map((e: { code?: unknown; message?: unknown }) =>
        e && typeof e === 'object' ? `${String(e.code ?? 'ERROR')}: ${String(e.message ?? '')}` : String(e),
      )
      .join('\n'),
  );
}

export function defineBillingSubmitQueue(
  ctx: PlatformContext,
  opts: { models: BillingModels },
): BillingSubmitQueue {
  const { models } = opts;
  const {
    BILLING_GATEWAY_URL,
    BILLING_GATEWAY_TIMEOUT_MS,
    BILLING_SUBMIT_ATTEMPTS,
    BILLING_SUBMIT_CONCURRENCY,
  } = ctx.config;
  // at most BILLING_SUBMIT_CONCURRENCY claims in flight to the billing system, one connection each (the worker runs
  // a few more jobs than that: `submitJobSlots`)
  const gateway = createGatewayClient(BILLING_GATEWAY_URL, {
    timeoutMs: BILLING_GATEWAY_TIMEOUT_MS,
    sockets: BILLING_SUBMIT_CONCURRENCY,
  });

  const read = (id: string) => async () => {
    const doc = await models.BillingCase.findById(id, { outbox: 0 }).lean<BillingCaseDoc>().exec();
    if (!doc) throw new Error(`billing case ${id} is gone`);
    return doc;
  };

  /** Send the claim; classify the answer. Never throws. */
  async function send(doc: BillingCaseDoc, generation: number): Promise<SendResult> {
    const claim = buildClaim(doc, generation);
    let res: GatewayReply;
    try {
      res = await gateway.post('/claims', JSON.stringify(claim), {
        'content-type': 'application/json',
        'idempotency-key': claimKey(doc._id, generation),
      });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        return {
          kind: 'transient',
          error: `The billing system did not answer within ${BILLING_GATEWAY_TIMEOUT_MS} ms`,
        };
      return { kind: 'transient', error: `The billing system could not be reached: ${e.code ?? e.message}` };
    }
    const text = res.text;
    let body: { status?: unknown; errors?: unknown } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: described by the HTTP status below
    }
    const details = errorText(body.errors);
    if (res.status >= 200 && res.status < 300) {
      const status = typeof body.status === 'string' ? ANSWER_STATUS[body.status] : undefined;
      if (status)
        return { kind: 'final', status, errorDetails: status === 'ACCEPTED_BY_XIFIN' ? null : details };
      // an answer this worker does not understand: kept for a person to look at, not retried
      return {
        kind: 'final',
        status: 'REJECTED_BY_XIFIN',
        errorDetails: clip(`Unrecognised answer from the billing system (HTTP ${res.status}): ${text}`),
      };
    }
    if (body.status === 'PAYOR_SYSTEM_DOWN')
      return { kind: 'transient', error: `Payor system down${details ? `: ${details}` : ''}` };
    if (res.status >= 500 || res.status === 408 || res.status === 429)
      return {
        kind: 'transient',
        error: clip(`The billing system answered HTTP ${res.status}${details ? `: ${details}` : ''}`),
      };
    // a permanent refusal of the claim (design.md rule 8: a 4xx from a partner is not retried)
    return {
      kind: 'final',
      status: 'REJECTED_BY_XIFIN',
      errorDetails: clip(`The billing system refused the claim (HTTP ${res.status}): ${details ?? text}`),
    };
  }

  /**
   * The worker's writes go to the driver without mongoose's casting (~0.3-0.5 ms of CPU a write, on the process
   * that also runs the queue and the relay): everything they hold is already what the store keeps (strings,
   * numbers, Dates, the history entry and the outbox entry as built).
   */
  const cases = models.BillingCase.collection as unknown as mongo.Collection<BillingCaseDoc>;
  const writeUncast: CaseWriter = async (w) =>
    (
      await cases.updateOne(
        w.filter as mongo.Filter<BillingCaseDoc>,
        w.update as mongo.UpdateFilter<BillingCaseDoc>,
      )
    ).modifiedCount === 1;

  /**
   * Step 1 of a first send without reading the case first: QUEUED_FOR_SUBMISSION (of this generation, still as
   * Submit queued it) -> SUBMITTED_TO_XIFIN with its history entry and its billing-case event (built from what the
   * filter guarantees), the case returned as written. Null when the case is not in that state (a re-run after a
   * crash, a retry, a stale job, a case changed meanwhile): the caller reads it and decides as usual.
   */
  async function markSubmitted(
    caseId: string,
    generation: number,
    queued: NonNullable<BillingSubmitJobData['queued']>,
  ): Promise<BillingCaseDoc | null> {
    const at = new Date();
    const status: BillingCaseStatus = 'SUBMITTED_TO_XIFIN';
    const event = billingCaseEvent(
      { _id: caseId, ...queued, caseStatus: status, errorDetails: null },
      'QUEUED_FOR_SUBMISSION',
      SYSTEM_ACTOR,
      at,
    );
    return cases.findOneAndUpdate(
      {
        _id: caseId,
        deleted: false,
        caseStatus: 'QUEUED_FOR_SUBMISSION',
        'submission.generation': generation,
        testOrderId: queued.testOrderId,
        testOrderFormId: queued.testOrderFormId,
        billingCode: queued.billingCode,
      },
      withOutbox(
        {
          $set: {
            caseStatus: status,
            errorDetails: null,
            'submission.attempts': 1,
            updatedOn: at,
            updatedBy: SYSTEM_ACTOR.id,
          },
          $inc: { version: 1 },
          $push: { caseHistory: historyEntry(status, null, at, SYSTEM_ACTOR) },
        },
        event,
      ),
      { returnDocument: 'after', projection: { outbox: 0 } },
    ) as Promise<BillingCaseDoc | null>;
  }

  async function exec(
    job: Pick<Job<BillingSubmitJobData>, 'data' | 'attemptsMade' | 'opts'>,
  ): Promise<BillingSubmitResult> {
    const { caseId, generation } = job.data;
    const attempt = job.attemptsMade + 1;
    const lastAttempt = attempt >= (job.opts.attempts ?? BILLING_SUBMIT_ATTEMPTS);
    const log = ctx.logger.child({ queue: BILLING_SUBMIT_QUEUE, caseId, generation, attempt });

    // the first send of a case Submit queued: SUBMITTED_TO_XIFIN in one command; anything else reads the case
    // (a retry reads it: the case is still QUEUED_FOR_SUBMISSION then only after an unexpected error)
    const marked =
      job.data.queued && job.attemptsMade === 0
        ? await markSubmitted(caseId, generation, job.data.queued)
        : null;
    const current =
      marked ?? (await models.BillingCase.findById(caseId, { outbox: 0 }).lean<BillingCaseDoc>().exec());
    const skip = (reason: BillingSubmitResult['reason']): BillingSubmitResult => {
      log.info({ reason, status: current?.caseStatus }, 'billing submission skipped');
      return { outcome: 'skipped', reason };
    };
    if (!current || current.deleted) return skip('missing');
    if (current.submission?.generation !== generation) return skip('stale');
    if (!SENDING.includes(current.caseStatus)) return skip('not-sending');

    // a decision only for this generation while it is still being sent; anything else leaves the case alone
    const ours = (d: BillingCaseDoc) =>
      d.submission?.generation === generation && SENDING.includes(d.caseStatus) && !d.deleted;
    const sub = (d: BillingCaseDoc, over: Partial<BillingSubmission>): BillingSubmission => ({
      generation,
      attempts: d.submission?.attempts ?? 0,
      lastError: d.submission?.lastError ?? null,
      queuedOn: d.submission?.queuedOn ?? null,
      queuedBy: d.submission?.queuedBy ?? null,
      ...over,
    });
    let stale = false;
    // the case as this job last read or wrote it: each step decides on it first and reads again only when its
    // conditional write lost (someone changed the case meanwhile), which saves a read per step
    let known: BillingCaseDoc | null = current;
    const readKnownFirst = async () => {
      const d = known ?? (await read(caseId)());
      known = null;
      return d;
    };
    const step = async (decide: (d: BillingCaseDoc) => CaseDecision) => {
      const after = await changeCase(
        models,
        readKnownFirst,
        (d) => {
          if (!ours(d)) {
            stale = true;
            return { noop: true };
          }
          return decide(d);
        },
        SYSTEM_ACTOR,
        { write: writeUncast },
      );
      known = after;
      return after;
    };

    // 1. the send starts: SUBMITTED_TO_XIFIN (first send) or RETRY_IN_PROGRESS (a retry); a re-run after a
    // crash finds the case already there and sends again under the same key
    const before = await step((d) => {
      if (d.caseStatus === 'QUEUED_FOR_SUBMISSION')
        return {
          set: { caseStatus: 'SUBMITTED_TO_XIFIN', errorDetails: null, submission: sub(d, { attempts: 1 }) },
        };
      if (d.caseStatus === 'RETRY_SCHEDULED')
        return {
          set: {
            caseStatus: 'RETRY_IN_PROGRESS',
            submission: sub(d, { attempts: (d.submission?.attempts ?? 0) + 1 }),
          },
        };
      return { noop: true };
    });
    if (stale) return skip('not-sending');
    const retrying = RETRYING.includes(before.caseStatus);

    // 2. the claim and its answer
    const result = await send(before, generation);

    // 3. record it
    if (result.kind === 'final') {
      if (retrying && before.caseStatus !== 'RETRY_SUCCEEDED') {
        await step((d) =>
          d.caseStatus === 'RETRY_SUCCEEDED'
            ? { noop: true }
            : { set: { caseStatus: 'RETRY_SUCCEEDED', errorDetails: null } },
        );
        if (stale) return skip('not-sending');
      }
      const after = await step((d) => ({
        set: {
          caseStatus: result.status,
          errorDetails: result.errorDetails,
          submission: sub(d, { lastError: null }),
        },
      }));
      if (stale) return skip('not-sending');
      log.info({ status: after.caseStatus }, 'billing submission answered');
      ctx.nudgeOutbox();
      return { outcome: 'answered', status: after.caseStatus };
    }

    const error = result.error;
    if (lastAttempt) {
      await step((d) => ({
        set: { caseStatus: 'RETRY_FAILED', errorDetails: error, submission: sub(d, { lastError: error }) },
      }));
      if (stale) return skip('not-sending');
      log.warn({ error }, 'billing submission failed after its last attempt');
      ctx.nudgeOutbox();
      return { outcome: 'retry-failed', status: 'RETRY_FAILED' };
    }
    await step((d) => ({
      set: { caseStatus: 'RETRY_SCHEDULED', errorDetails: error, submission: sub(d, { lastError: error }) },
    }));
    if (stale) return skip('not-sending');
    ctx.nudgeOutbox();
    log.info({ error }, 'billing submission will be retried');
    throw new SubmissionRetry(error);
  }

  const handle = ctx.queues.define<BillingSubmitJobData>({
    name: BILLING_SUBMIT_QUEUE,
    attempts: ctx.config.BILLING_SUBMIT_ATTEMPTS,
    backoffMs: ctx.config.BILLING_SUBMIT_BACKOFF_MS,
    concurrency: submitJobSlots(BILLING_SUBMIT_CONCURRENCY),
    // a re-run sends under the same Idempotency-Key, so a job that lost its worker is run again, as often as it
    // may be retried, rather than failed for good and left to the requeue sweep (docs/decisions.md, Billing)
    maxStalledCount: ctx.config.BILLING_SUBMIT_ATTEMPTS,
    processor: exec,
  });

  const add = (data: BillingSubmitJobData) =>
    handle.add(data, { jobId: billingSubmitJobId(data.caseId, data.generation) });
  const addMany = async (data: BillingSubmitJobData[]) => {
    await handle.queue.addBulk(
      data.map((d) => ({
        name: BILLING_SUBMIT_QUEUE,
        data: d,
        opts: { jobId: billingSubmitJobId(d.caseId, d.generation) },
      })),
    );
  };

  /** Which of a page of cases being sent have no job (added again) or a failed one (retried). */
  async function requeuePage(page: QueuedCase[]): Promise<number> {
    const jobs = page.map((c) => ({
      id: billingSubmitJobId(c._id, c.submission!.generation),
      data: submitJobData(c),
    }));
    // one round trip for the page: whether each job exists, and whether it is in the failed set
    const pipe = ctx.redis.pipeline();
    for (const j of jobs) pipe.exists(handle.queue.toKey(j.id)).zscore(handle.queue.keys.failed, j.id);
    const replies = (await pipe.exec()) ?? [];
    const answer = (i: number) => {
      const [err, value] = replies[i] ?? [new Error('no reply from Redis'), null];
      if (err) throw err;
      return value;
    };
    const missing: BillingSubmitJobData[] = [];
    let n = 0;
    for (let i = 0; i < jobs.length; i++) {
      if (!answer(2 * i)) missing.push(jobs[i].data);
      else if (answer(2 * i + 1) !== null) {
        const job = await handle.queue.getJob(jobs[i].id);
        if (job && (await job.isFailed())) {
          await job.retry('failed');
          n += 1;
        }
      }
    }
    if (missing.length) await addMany(missing);
    return n + missing.length;
  }

  async function requeue(): Promise<number> {
    let n = 0;
    // index { caseStatus: 1, updatedOn: -1 } (the list's Billing Status filter)
    const cursor = models.BillingCase.find(
      { caseStatus: { $in: SENDING }, deleted: false },
      { _id: 1, submission: 1, testOrderId: 1, testOrderFormId: 1, billingCode: 1 },
    )
      .lean<QueuedCase[]>()
      .cursor({ batchSize: REQUEUE_PAGE });
    let page: QueuedCase[] = [];
    for await (const c of cursor) {
      if (!c.submission?.generation) continue;
      page.push(c);
      if (page.length < REQUEUE_PAGE) continue;
      n += await requeuePage(page);
      page = [];
    }
    if (page.length) n += await requeuePage(page);
    if (n) ctx.logger.warn({ queue: BILLING_SUBMIT_QUEUE, jobs: n }, 'billing submissions re-queued');
    return n;
  }

  return { name: BILLING_SUBMIT_QUEUE, add, addMany, exec, requeue, close: () => gateway.close() };
}
