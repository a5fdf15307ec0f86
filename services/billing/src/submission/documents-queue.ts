import { DOC_UPLOAD_START_STATUSES } from '@onco/domain';
import type { PlatformContext } from '@onco/platform';
import type { BillingCaseDoc, BillingModels } from '../models';
import { createGatewayClient } from './gateway-client';
import {
  BILLING_DOCUMENTS_QUEUE,
  documentsJobId,
  execDocumentsJob,
  roundOf,
  type ClaimDocumentSource,
  type DocumentsJobData,
  type DocumentsJobResult,
} from './documents-job';
import { uncastWrites } from './writes';

/** Documents sent at once by one worker process (each its own connection to the billing system). */
const DOCUMENTS_CONCURRENCY = 4;

export interface BillingDocumentsQueue {
  name: typeof BILLING_DOCUMENTS_QUEUE;
  /** whether documents are uploaded at all (BILLING_DOCUMENTS, and a document source wired) */
  enabled: boolean;
  /** the round due for each case that is in a status a round starts in (others are left out); never throws */
  start(cases: Array<Pick<BillingCaseDoc, '_id' | 'caseStatus' | 'submission' | 'documents'>>): Promise<void>;
  /** queue one round under its deterministic job id */
  add(data: DocumentsJobData): Promise<void>;
  exec: (job: Parameters<typeof execDocumentsJob>[1]) => Promise<DocumentsJobResult>;
  /**
   * Make sure every case the billing system took has its round's job (run where the workers start, and every
   * BILLING_REQUEUE_INTERVAL_MS): a missing job (its add failed, Redis lost its data) is added again, a failed one
   * retried. Returns how many.
   */
  requeue(): Promise<number>;
  close(): void;
}

/** The billing-documents queue (documents-job.ts describes its jobs), wired. */
export function defineBillingDocumentsQueue(
  ctx: PlatformContext,
  opts: { models: BillingModels; source: ClaimDocumentSource | null },
): BillingDocumentsQueue {
  const { models, source } = opts;
  const { BILLING_GATEWAY_URL, BILLING_GATEWAY_TIMEOUT_MS, BILLING_SUBMIT_ATTEMPTS } = ctx.config;
  const enabled = ctx.config.BILLING_DOCUMENTS && source !== null;
  const gateway = createGatewayClient(BILLING_GATEWAY_URL, {
    timeoutMs: BILLING_GATEWAY_TIMEOUT_MS,
    sockets: DOCUMENTS_CONCURRENCY,
  });
  const deps = {
    ctx,
    models,
    gateway,
    source: source ?? { filesOf: async () => [] },
    timeoutMs: BILLING_GATEWAY_TIMEOUT_MS,
    attempts: BILLING_SUBMIT_ATTEMPTS,
    ...uncastWrites(models),
  };
  const exec: BillingDocumentsQueue['exec'] = (job) => execDocumentsJob(deps, job);
  const handle = ctx.queues.define<DocumentsJobData>({
    name: BILLING_DOCUMENTS_QUEUE,
    attempts: BILLING_SUBMIT_ATTEMPTS,
    backoffMs: ctx.config.BILLING_SUBMIT_BACKOFF_MS,
    concurrency: DOCUMENTS_CONCURRENCY,
    // a re-run sends under the same keys: run again rather than failed for good
    maxStalledCount: BILLING_SUBMIT_ATTEMPTS,
    processor: exec,
  });

  const add = async (data: DocumentsJobData) => {
    if (enabled) await handle.add(data, { jobId: documentsJobId(data) });
  };
  const dataOf = (c: Parameters<BillingDocumentsQueue['start']>[0][number]): DocumentsJobData | null =>
    c.submission?.generation && DOC_UPLOAD_START_STATUSES.includes(c.caseStatus)
      ? { caseId: c._id, generation: c.submission.generation, round: roundOf(c) }
      : null;

  const start: BillingDocumentsQueue['start'] = async (cases) => {
    const due = cases.map(dataOf).filter((d): d is DocumentsJobData => d !== null);
    if (!enabled || due.length === 0) return;
    try {
      await handle.queue.addBulk(
        due.map((d) => ({ name: BILLING_DOCUMENTS_QUEUE, data: d, opts: { jobId: documentsJobId(d) } })),
      );
    } catch (err) {
      // the requeue sweep adds them later
      ctx.logger.warn({ err: (err as Error).message, cases: due.length }, 'claim documents not queued yet');
    }
  };

  const requeue = async () => {
    if (!enabled) return 0;
    let n = 0;
    // index { caseStatus: 1, updatedOn: -1 } (the list's Billing Status filter)
    const cursor = models.BillingCase.find(
      { caseStatus: { $in: DOC_UPLOAD_START_STATUSES }, deleted: false },
      { _id: 1, caseStatus: 1, submission: 1, documents: 1 },
    )
      .lean<BillingCaseDoc[]>()
      .cursor({ batchSize: 200 });
    for await (const c of cursor) {
      const data = dataOf(c);
      if (!data) continue;
      const job = await handle.queue.getJob(documentsJobId(data));
      if (!job) {
        await add(data);
        n += 1;
      } else if (await job.isFailed()) {
        await job.retry('failed');
        n += 1;
      }
    }
    if (n) ctx.logger.warn({ queue: BILLING_DOCUMENTS_QUEUE, jobs: n }, 'claim documents re-queued');
    return n;
  };

  return { name: BILLING_DOCUMENTS_QUEUE, enabled, start, add, exec, requeue, close: () => gateway.close() };
}
