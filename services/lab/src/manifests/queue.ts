import type { Job, JobsOptions, Queue } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import type { LabModels, SampleManifestDoc } from '../models';
import {
  processManifest,
  type ManifestJobDeps,
  type ManifestJobProgress,
  type SampleManifestQueueHooks,
} from './process-manifest';
import { fileError, type SampleManifestJobResult } from './verdict';

/**
 * The `sample-manifest` queue (design.md rule 8; docs/manifests.md): one job per SAMPLE_MANIFEST attachment,
 * job id = the attachment id, added by the `attachment.changed` consumer (consumer.ts) and by the requeue sweep.
 *
 * `exec` re-reads the lab's manifest record and stops when it has its verdict already (a redelivered event, a
 * retried or duplicated job) or when the attachment was removed. Otherwise: read the file from the file store
 * (at most 50 MB), parse it in a bounded worker thread (parse.ts), refuse content applied before (same SHA-256),
 * plan every row (plan.ts) and either record ERROR with the row errors (nothing written) or apply the plan and
 * record PROCESSED in one transaction. The verdict carries the `sample-manifest.processed` event.
 *
 * Killed halfway (SIGKILL), the transaction dies with the connection: nothing of it stays, and the job, stalled,
 * is run again by another worker from the start (manifest.kill.int.test.ts). An infrastructure error is retried
 * (5 attempts, exponential backoff from 2 s); the last attempt records ERROR with the reason, so a manifest never
 * stays UPLOADED for ever.
 */
export const SAMPLE_MANIFEST_QUEUE = 'sample-manifest';
export const SAMPLE_MANIFEST_ATTEMPTS = 5;
export const SAMPLE_MANIFEST_BACKOFF_MS = 2000;

export interface SampleManifestJobData {
  attachmentId: string;
}

/** A job as its processor needs it (the progress is optional: tests run `exec` on a bare job). */
type ManifestJob = Pick<Job<SampleManifestJobData>, 'data' | 'attemptsMade'> &
  Partial<Pick<Job<SampleManifestJobData>, 'updateProgress'>>;

export interface SampleManifestQueue {
  name: typeof SAMPLE_MANIFEST_QUEUE;
  queue: Queue<SampleManifestJobData>;
  add(data: SampleManifestJobData, opts?: JobsOptions): Promise<Job<SampleManifestJobData>>;
  exec(job: ManifestJob): Promise<SampleManifestJobResult>;
  /** add the job of every manifest still UPLOADED `olderThanMs` after its upload (the job id makes it a no-op when queued) */
  requeueWaiting(olderThanMs?: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The job's progress reporter: each phase change and each chunk of 1,000 new samples written is one write to
 * Redis (a 100,000-row manifest: about a hundred); a failed write is only logged (progress is a courtesy, the
 * verdict is in the store).
 */
function reporter(ctx: PlatformContext, job: Partial<Pick<Job<SampleManifestJobData>, 'updateProgress'>>) {
  return (p: ManifestJobProgress) =>
    void job
      .updateProgress?.({ ...p })
      .catch((err) => ctx.logger.debug({ err: (err as Error).message }, 'manifest progress not written'));
}

/** The job: the manifest re-read, then processed unless it has its verdict already or is gone. */
async function execManifestJob(deps: ManifestJobDeps, job: ManifestJob): Promise<SampleManifestJobResult> {
  const m = await deps.models.SampleManifest.findById(job.data.attachmentId, { outbox: 0 })
    .lean<SampleManifestDoc>()
    .exec();
  if (!m) return { outcome: 'skipped', reason: 'missing' };
  if (m.status !== 'UPLOADED') return { outcome: 'done-before' };
  if (m.deleted) return { outcome: 'skipped', reason: 'deleted' };
  try {
    return await processManifest(deps, m, reporter(deps.ctx, job));
  } catch (err) {
    // the last attempt: the verdict says why, so the attachment does not stay UPLOADED for ever
    if (job.attemptsMade + 1 >= SAMPLE_MANIFEST_ATTEMPTS)
      return fileError(
        deps,
        m,
        `The manifest could not be processed: ${String((err as Error)?.message ?? err).slice(0, 300)}`,
      );
    throw err;
  }
}

/** The requeue sweep (SampleManifestQueue.requeueWaiting): `add` is the queue's. */
async function requeueWaiting(
  models: LabModels,
  add: (data: SampleManifestJobData) => Promise<unknown>,
  olderThanMs = 60_000,
): Promise<number> {
  const waiting = await models.SampleManifest.find(
    { status: 'UPLOADED', uploadedOn: { $lt: new Date(Date.now() - olderThanMs) }, deleted: false },
    { _id: 1 },
  )
    .limit(100)
    .lean()
    .exec();
  for (const w of waiting) await add({ attachmentId: w._id });
  return waiting.length;
}

export function defineSampleManifestQueue(
  ctx: PlatformContext,
  opts: { models: LabModels; reviewAccountId?: string | null; hooks?: SampleManifestQueueHooks },
): SampleManifestQueue {
  const { models } = opts;
  const deps: ManifestJobDeps = {
    ctx,
    models,
    reviewAccountId: opts.reviewAccountId,
    hooks: opts.hooks,
  };
  const exec = (job: ManifestJob) => execManifestJob(deps, job);
  const handle = ctx.queues.define<SampleManifestJobData>({
    name: SAMPLE_MANIFEST_QUEUE,
    concurrency: 1,
    attempts: SAMPLE_MANIFEST_ATTEMPTS,
    backoffMs: SAMPLE_MANIFEST_BACKOFF_MS,
    processor: (job) => exec(job),
  });

  const add = (data: SampleManifestJobData, o?: JobsOptions) =>
    handle.add(data, { jobId: data.attachmentId, ...o });

  return {
    name: SAMPLE_MANIFEST_QUEUE,
    queue: handle.queue,
    add,
    exec,
    requeueWaiting: (olderThanMs?: number) => requeueWaiting(models, add, olderThanMs),
    close: () => handle.queue.close(),
  };
}
