import type { Job } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import type { BillingModels } from '../models';
import { createGatewayClient } from './gateway-client';
import { execSubmitJob, type SubmitJob, type SubmitJobDeps } from './process-job';
import { requeueSubmissions } from './requeue';
import {
  BILLING_SUBMIT_QUEUE,
  billingSubmitJobId,
  submitJobSlots,
  type BillingSubmitJobData,
  type BillingSubmitResult,
} from './submit-job';
import { uncastWrites } from './writes';
import type { BillingDocumentsQueue } from './documents-queue';

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

/**
 * The billing-submit queue (submit-job.ts describes its jobs): the gateway client, the job's processor
 * (process-job.ts) and the requeue sweep (requeue.ts), wired.
 */
export function defineBillingSubmitQueue(
  ctx: PlatformContext,
  opts: { models: BillingModels; documents?: Pick<BillingDocumentsQueue, 'start'> },
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

  const deps: SubmitJobDeps = {
    ctx,
    models,
    gateway,
    timeoutMs: BILLING_GATEWAY_TIMEOUT_MS,
    attempts: BILLING_SUBMIT_ATTEMPTS,
    documents: opts.documents,
    ...uncastWrites(models),
  };
  const exec = (job: SubmitJob): Promise<BillingSubmitResult> => execSubmitJob(deps, job);

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

  const requeue = () => requeueSubmissions({ ctx, models, queue: handle.queue, addMany });

  return { name: BILLING_SUBMIT_QUEUE, add, addMany, exec, requeue, close: () => gateway.close() };
}
