import type { Readable } from 'node:stream';
import type { Job, JobsOptions, Queue } from 'bullmq';
import { MANIFEST_MSG, manifestErrorText } from '@onco/domain';
import { createEvent, withOutbox } from '@onco/events';
import { inTransaction, type PlatformContext } from '@onco/platform';
import type { LabModels, SampleManifestDoc } from '../models';
import { ManifestFileError, formatOfName, parseManifestFile, prewarmParseThread } from './parse';
import { StalePlanError, applyManifestPlan, filePlan, planManifest, type ManifestPlan } from './plan';

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
/** the largest file read (the upload limit) */
export const MANIFEST_MAX_BYTES = 50 * 1024 * 1024;
const PLAN_TRIES = 3;

export interface SampleManifestJobData {
  attachmentId: string;
}

export interface SampleManifestJobResult {
  outcome: 'PROCESSED' | 'ERROR' | 'done-before' | 'skipped';
  reason?: 'missing' | 'deleted';
  rows?: number;
  created?: number;
  updated?: number;
  errorCount?: number;
  timings?: Record<string, number>;
}

/**
 * What a running job says of itself (BullMQ job progress, in Redis: never a write to the store, so never in the
 * way of the apply transaction): the phase, and for APPLYING how many new samples of how many are written.
 * GET /sampleManifests/{id} shows it while the manifest is UPLOADED (routes.ts).
 */
export interface ManifestJobProgress {
  phase: 'READING' | 'PARSING' | 'CHECKING' | 'APPLYING';
  done: number;
  total: number;
}

export interface SampleManifestQueueHooks {
  /** tests: runs inside the apply transaction after half of the new samples are inserted */
  midApply?: (attachmentId: string) => Promise<void>;
}

export interface SampleManifestQueue {
  name: typeof SAMPLE_MANIFEST_QUEUE;
  queue: Queue<SampleManifestJobData>;
  add(data: SampleManifestJobData, opts?: JobsOptions): Promise<Job<SampleManifestJobData>>;
  exec(
    job: Pick<Job<SampleManifestJobData>, 'data' | 'attemptsMade'> &
      Partial<Pick<Job<SampleManifestJobData>, 'updateProgress'>>,
  ): Promise<SampleManifestJobResult>;
  /** add the job of every manifest still UPLOADED `olderThanMs` after its upload (the job id makes it a no-op when queued) */
  requeueWaiting(olderThanMs?: number): Promise<number>;
  close(): Promise<void>;
}

/** Read a stored file into memory, refusing past `max` bytes. */
export async function readBlob(stream: Readable, max = MANIFEST_MAX_BYTES): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      throw new ManifestFileError(MANIFEST_MSG.tooLarge(max / 1024 / 1024));
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

export function defineSampleManifestQueue(
  ctx: PlatformContext,
  opts: { models: LabModels; reviewAccountId?: string | null; hooks?: SampleManifestQueueHooks },
): SampleManifestQueue {
  const { models } = opts;
  const handle = ctx.queues.define<SampleManifestJobData>({
    name: SAMPLE_MANIFEST_QUEUE,
    concurrency: 1,
    attempts: SAMPLE_MANIFEST_ATTEMPTS,
    backoffMs: SAMPLE_MANIFEST_BACKOFF_MS,
    processor: (job) => exec(job),
  });

  function verdictEvent(m: SampleManifestDoc, plan: ManifestPlan, status: 'PROCESSED' | 'ERROR', at: Date) {
    return createEvent(
      'sample-manifest',
      {
        data: {
          attachmentId: m._id,
          status,
          rows: plan.rows,
          created: status === 'PROCESSED' ? plan.creates.length : 0,
          updated: status === 'PROCESSED' ? plan.updates.length : 0,
          errorCount: status === 'ERROR' ? Math.max(plan.errorCount, 1) : 0,
          errorDetails:
            status === 'ERROR' ? manifestErrorText(plan.errors, plan.errorCount).slice(0, 200_000) : null,
          missingSamples: plan.missing.reduce(
            (n, x) => n + x.expected.filter((k) => !x.found.includes(k)).length,
            0,
          ),
          processedOn: at.toISOString(),
        },
      },
      { now: () => at },
    );
  }

  const verdictSet = (plan: ManifestPlan, status: 'PROCESSED' | 'ERROR', at: Date) => ({
    status,
    rows: plan.rows,
    created: status === 'PROCESSED' ? plan.creates.length : 0,
    updated: status === 'PROCESSED' ? plan.updates.length : 0,
    errors: plan.errors,
    errorCount: plan.errorCount,
    missing: status === 'PROCESSED' ? plan.missing : [],
    processedOn: at,
    updatedOn: at,
  });

  /** ERROR, with the plan's errors, in one conditional write with its event (nothing else is written). */
  async function recordError(m: SampleManifestDoc, plan: ManifestPlan): Promise<SampleManifestJobResult> {
    const at = new Date();
    if (plan.errorCount === 0)
      plan = {
        ...plan,
        errors: [{ row: 0, column: null, message: MANIFEST_MSG.notProcessed }],
        errorCount: 1,
      };
    await models.SampleManifest.updateOne(
      { _id: m._id, status: 'UPLOADED' },
      withOutbox({ $set: verdictSet(plan, 'ERROR', at) }, verdictEvent(m, plan, 'ERROR', at)),
    ).exec();
    ctx.nudgeOutbox();
    ctx.logger.info(
      { attachmentId: m._id, rows: plan.rows, errorCount: plan.errorCount },
      'sample manifest refused',
    );
    return { outcome: 'ERROR', rows: plan.rows, errorCount: plan.errorCount };
  }

  const fileError = (m: SampleManifestDoc, message: string, rows = 0) =>
    recordError(m, filePlan([{ row: 0, column: null, message }], rows));

  async function alreadyApplied(m: SampleManifestDoc): Promise<string | null> {
    if (!m.sha256) return null;
    const prior = await models.SampleManifestContent.findById(m.sha256).lean().exec();
    if (!prior || prior.attachmentId === m._id) return null;
    return MANIFEST_MSG.alreadyApplied(prior.name, prior.appliedOn.toISOString().slice(0, 10));
  }

  async function process(
    m: SampleManifestDoc,
    report: (p: ManifestJobProgress) => void,
  ): Promise<SampleManifestJobResult> {
    const timings: Record<string, number> = {};
    let t = Date.now();
    const lap = (k: string) => {
      timings[k] = Date.now() - t;
      t = Date.now();
    };
    if (!m.uploaderScope?.mayEditSamples) return fileError(m, MANIFEST_MSG.notAllowed);
    const format = formatOfName(m.name);
    if (!format) return fileError(m, 'A sample manifest must be a .xlsx, .xls or .csv file.');
    const before = await alreadyApplied(m);
    if (before) return fileError(m, before);
    if (!m.blobId) return fileError(m, 'The file of this attachment is not available.');
    let parsed;
    try {
      report({ phase: 'READING', done: 0, total: 0 });
      prewarmParseThread(); // starts while the file is read
      const buf = await readBlob(await ctx.blobs.get(m.blobId));
      lap('read');
      report({ phase: 'PARSING', done: 0, total: 0 });
      parsed = await parseManifestFile(buf, format);
      lap('parse');
    } catch (err) {
      if (err instanceof ManifestFileError) return fileError(m, err.message);
      throw err;
    }
    const uploader = {
      by: { id: m.uploadedBy.id ?? 'unknown', name: m.uploadedBy.name ?? '' },
      scope: m.uploaderScope,
    };
    for (let attempt = 1; ; attempt++) {
      const at = new Date();
      report({ phase: 'CHECKING', done: 0, total: Math.max(parsed.rows.length - 1, 0) });
      const plan = await planManifest(models, uploader, parsed, {
        now: at,
        reviewAccountId: opts.reviewAccountId ?? null,
        attachmentId: m._id,
        timings,
      });
      lap('plan');
      if (plan.errorCount > 0) return recordError(m, plan);
      try {
        report({ phase: 'APPLYING', done: 0, total: plan.creates.length });
        const applied = await inTransaction(
          ctx.mongo,
          async (session) => {
            if (m.sha256)
              await models.SampleManifestContent.collection.insertOne(
                { _id: m.sha256, attachmentId: m._id, name: m.name, appliedOn: at } as never,
                { session },
              );
            await applyManifestPlan(
              models,
              session,
              plan,
              uploader.by,
              at,
              opts.hooks?.midApply ? () => opts.hooks!.midApply!(m._id) : undefined,
              timings,
              (done, total) => report({ phase: 'APPLYING', done, total }),
            );
            const res = await models.SampleManifest.collection.updateOne(
              { _id: m._id, status: 'UPLOADED' } as never,
              withOutbox({ $set: verdictSet(plan, 'PROCESSED', at) }, verdictEvent(m, plan, 'PROCESSED', at)),
              { session },
            );
            return res.matchedCount === 1;
          },
          { timeoutMs: 60_000 },
        );
        lap('apply');
        ctx.nudgeOutbox();
        if (!applied) return { outcome: 'done-before' };
        ctx.logger.info(
          {
            attachmentId: m._id,
            rows: plan.rows,
            created: plan.creates.length,
            updated: plan.updates.length,
            timings,
          },
          'sample manifest applied',
        );
        return {
          outcome: 'PROCESSED',
          rows: plan.rows,
          created: plan.creates.length,
          updated: plan.updates.length,
          errorCount: 0,
          timings,
        };
      } catch (err) {
        if (
          (err as { code?: number })?.code === 11000 &&
          /sample_manifest_contents/.test(String((err as Error).message))
        ) {
          const why = await alreadyApplied(m);
          if (why) return fileError(m, why, plan.rows);
        }
        if (err instanceof StalePlanError && attempt < PLAN_TRIES) continue;
        throw err;
      }
    }
  }

  /**
   * The job's progress reporter: each phase change and each chunk of 1,000 new samples written is one write to
   * Redis (a 100,000-row manifest: about a hundred); a failed write is only logged (progress is a courtesy, the
   * verdict is in the store).
   */
  function reporter(job: Partial<Pick<Job<SampleManifestJobData>, 'updateProgress'>>) {
    return (p: ManifestJobProgress) =>
      void job
        .updateProgress?.({ ...p })
        .catch((err) => ctx.logger.debug({ err: (err as Error).message }, 'manifest progress not written'));
  }

  async function exec(
    job: Pick<Job<SampleManifestJobData>, 'data' | 'attemptsMade'> &
      Partial<Pick<Job<SampleManifestJobData>, 'updateProgress'>>,
  ): Promise<SampleManifestJobResult> {
    const m = await models.SampleManifest.findById(job.data.attachmentId, { outbox: 0 })
      .lean<SampleManifestDoc>()
      .exec();
    if (!m) return { outcome: 'skipped', reason: 'missing' };
    if (m.status !== 'UPLOADED') return { outcome: 'done-before' };
    if (m.deleted) return { outcome: 'skipped', reason: 'deleted' };
    try {
      return await process(m, reporter(job));
    } catch (err) {
      // the last attempt: the verdict says why, so the attachment does not stay UPLOADED for ever
      if (job.attemptsMade + 1 >= SAMPLE_MANIFEST_ATTEMPTS)
        return fileError(
          m,
          `The manifest could not be processed: ${String((err as Error)?.message ?? err).slice(0, 300)}`,
        );
      throw err;
    }
  }

  async function requeueWaiting(olderThanMs = 60_000): Promise<number> {
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

  const add = (data: SampleManifestJobData, o?: JobsOptions) =>
    handle.add(data, { jobId: data.attachmentId, ...o });

  return {
    name: SAMPLE_MANIFEST_QUEUE,
    queue: handle.queue,
    add,
    exec,
    requeueWaiting,
    close: () => handle.queue.close(),
  };
}
