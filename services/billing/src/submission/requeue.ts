import type { Queue } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import type { BillingModels } from '../models';
import {
  BILLING_SUBMIT_QUEUE,
  billingSubmitJobId,
  SENDING,
  submitJobData,
  type BillingSubmitJobData,
  type QueuedCase,
} from './submit-job';

/** How many cases being sent the requeue sweep checks in one round trip to Redis. */
const REQUEUE_PAGE = 500;

/** What the requeue sweep needs (wired by defineBillingSubmitQueue). */
export interface RequeueDeps {
  ctx: PlatformContext;
  models: BillingModels;
  queue: Queue<BillingSubmitJobData>;
  /** queue several jobs at once, each under its deterministic job id */
  addMany(data: BillingSubmitJobData[]): Promise<void>;
}

/** Which of a page of cases being sent have no job (added again) or a failed one (retried). */
async function requeuePage(deps: RequeueDeps, page: QueuedCase[]): Promise<number> {
  const { ctx, queue } = deps;
  const jobs = page.map((c) => ({
    id: billingSubmitJobId(c._id, c.submission!.generation),
    data: submitJobData(c),
  }));
  // one round trip for the page: whether each job exists, and whether it is in the failed set
  const pipe = ctx.redis.pipeline();
  for (const j of jobs) pipe.exists(queue.toKey(j.id)).zscore(queue.keys.failed, j.id);
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
      const job = await queue.getJob(jobs[i].id);
      if (job && (await job.isFailed())) {
        await job.retry('failed');
        n += 1;
      }
    }
  }
  if (missing.length) await deps.addMany(missing);
  return n + missing.length;
}

/** The requeue sweep of the billing-submit queue (BillingSubmitQueue.requeue). */
export async function requeueSubmissions(deps: RequeueDeps): Promise<number> {
  const { ctx, models } = deps;
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
    n += await requeuePage(deps, page);
    page = [];
  }
  if (page.length) n += await requeuePage(deps, page);
  if (n) ctx.logger.warn({ queue: BILLING_SUBMIT_QUEUE, jobs: n }, 'billing submissions re-queued');
  return n;
}
