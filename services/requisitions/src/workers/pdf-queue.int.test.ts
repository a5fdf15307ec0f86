import { QueueEvents, type Job } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QueueRegistry } from '@onco/platform';
import { blobFiles, createTestSystem } from '@onco/testing';
import { generatedDocumentModel } from '../models/generated-document';
import {
  blankFormDocumentId,
  blankFormJobId,
  definePdfQueue,
  PDF_QUEUE,
  type PdfJobData,
  type PdfQueue,
} from './pdf-queue';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

/** a stand-in for a BullMQ job when calling the processor directly */
const fakeJob = (data: PdfJobData, attemptsMade = 0) =>
  ({ id: 'direct', data, attemptsMade, log: async () => 0 }) as unknown as Job<PdfJobData>;

describe('pdf queue (real Redis, BullMQ, chromium, the store)', () => {
  let sys: Sys;
  let pdf: PdfQueue;
  let events: QueueEvents;
  const docId = blankFormDocumentId('102-210-C');

  beforeAll(async () => {
    sys = await createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'requisitions' });
    // a producer handle on the system's queue (the system's own worker processes the jobs)
    pdf = definePdfQueue(sys.ctx);
    events = new QueueEvents(PDF_QUEUE, {
      connection: { ...sys.ctx.redis.options, maxRetriesPerRequest: null, enableOfflineQueue: true },
      prefix: sys.config.QUEUE_PREFIX,
    });
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await events?.close();
    await pdf?.close();
    await sys?.close();
  });
  beforeEach(async () => {
    await pdf.queue.obliterate({ force: true });
    const Generated = generatedDocumentModel(sys.ctx.mongo);
    for (const d of await Generated.find({}).lean().exec()) await sys.ctx.blobs.remove(d.blobId);
    await Generated.deleteMany({}).exec();
  });

  it('retries a failed first attempt with backoff and succeeds on attempt 2, leaving exactly one document', async () => {
    const job = await pdf.add(
      { kind: 'blank-form', formVersion: '102-210-C', failTimes: 1 },
      { backoff: { type: 'exponential', delay: 300 } },
    );
    expect(job.id).toBe(blankFormJobId('102-210-C'));
    const result = await job.waitUntilFinished(events, 60_000);
    expect(result).toMatchObject({ documentId: docId, created: true });

    const done = (await pdf.queue.getJob(job.id!))!;
    expect(await done.getState()).toBe('completed');
    expect(done.attemptsStarted).toBe(2);
    const failures = done.stacktrace ?? [];
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/injected failure on attempt 1 of 1/);
    // the second attempt started no earlier than the backoff delay after the first failure
    expect(done.finishedOn! - done.timestamp).toBeGreaterThanOrEqual(300);

    expect(await generatedDocumentModel(sys.ctx.mongo).countDocuments({}).exec()).toBe(1);
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual([result.blobId]);
  });

  it('puts a job whose every attempt fails in the failed set, visible in the operations overview', async () => {
    const job = await pdf.add(
      { kind: 'blank-form', formVersion: '102-210-C', failTimes: 99 },
      {
        jobId: 'blank-form-102-210-C-always-fails',
        attempts: 3,
        backoff: { type: 'exponential', delay: 50 },
      },
    );
    await expect(job.waitUntilFinished(events, 60_000)).rejects.toThrow(
      /injected failure on attempt 3 of 99/,
    );

    const overview = await sys.ctx.queues.overview();
    const q = overview.find((o) => o.name === PDF_QUEUE)!;
    expect(q.counts.failed).toBe(1);
    expect(q.failed).toEqual([
      expect.objectContaining({
        id: 'blank-form-102-210-C-always-fails',
        attemptsMade: 3,
        failedReason: 'injected failure on attempt 3 of 99 (test only)',
      }),
    ]);
    expect(await generatedDocumentModel(sys.ctx.mongo).countDocuments({}).exec()).toBe(0);
  });

  it('is idempotent: a duplicate add is a no-op and a re-run job finds the record and stops', async () => {
    const first = await pdf.add({ kind: 'blank-form', formVersion: '102-210-C' });
    const r1 = await first.waitUntilFinished(events, 60_000);
    expect(r1.created).toBe(true);
    // same deterministic id while the completed job is kept: nothing new is queued
    await pdf.add({ kind: 'blank-form', formVersion: '102-210-C' });
    expect(await pdf.queue.getJobCounts('waiting', 'active', 'delayed', 'completed')).toMatchObject({
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: 1,
    });
    // once the completed job is gone, the same job runs again and stops at the record
    await first.remove();
    const second = await pdf.add({ kind: 'blank-form', formVersion: '102-210-C' });
    const r2 = await second.waitUntilFinished(events, 60_000);
    expect(r2).toMatchObject({ created: false, blobId: r1.blobId, renderMs: null });
    expect(await generatedDocumentModel(sys.ctx.mongo).countDocuments({}).exec()).toBe(1);
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual([r1.blobId]);
  });

  it('keeps one record and one blob when two attempts race (the loser removes its blob)', async () => {
    const [a, b] = await Promise.all([
      pdf.exec(fakeJob({ kind: 'blank-form', formVersion: '102-210-C' })),
      pdf.exec(fakeJob({ kind: 'blank-form', formVersion: '102-210-C' })),
    ]);
    expect(a.blobId).toBe(b.blobId);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(await generatedDocumentModel(sys.ctx.mongo).countDocuments({}).exec()).toBe(1);
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual([a.blobId]);
  });

  it('honours failTimes only when NODE_ENV is test', async () => {
    const prodCtx = {
      ...sys.ctx,
      config: { ...sys.ctx.config, NODE_ENV: 'production' as const },
      queues: new QueueRegistry(
        sys.ctx.redis,
        () => sys.ctx.redis,
        `${sys.config.QUEUE_PREFIX}_prod`,
        sys.ctx.logger,
      ),
    };
    const prodPdf = definePdfQueue(prodCtx);
    try {
      await expect(
        pdf.exec(fakeJob({ kind: 'blank-form', formVersion: '102-210-C', failTimes: 1 })),
      ).rejects.toThrow(/injected/);
      const r = await prodPdf.exec(fakeJob({ kind: 'blank-form', formVersion: '102-210-C', failTimes: 1 }));
      expect(r.documentId).toBe(docId);
    } finally {
      await prodPdf.close();
      await prodCtx.queues.close();
    }
  });
});
