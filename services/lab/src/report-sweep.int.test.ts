import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PlatformContext } from '@onco/platform';
import { auditEntriesSince, createTestSystem } from '@onco/testing';
import { labModels, type LabModels } from './models';
import { PENDING_REPORT_TTL_MS } from './use-cases';
import { defineReportUploadSweep, REPORT_SWEEP_QUEUE } from './report-sweep';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

const EVERY_MS = 400;

describe('lab: expired report uploads are swept on a schedule (report-upload-sweep), with no upload arriving', () => {
  let sys: Sys;
  let models: LabModels;

  beforeAll(async () => {
    sys = await createTestSystem({
      WORKERS: 'true',
      WORKER_MODULES: 'lab',
      REPORT_UPLOAD_SWEEP_EVERY_MS: String(EVERY_MS),
    });
    models = labModels(sys.ctx.mongo);
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
  });

  /** a pending upload of a stored file, expiring at `expiresOn` */
  const pending = async (testOrderId: string, expiresOn: Date) => {
    const blob = await sys.ctx.blobs.put(Readable.from([Buffer.from('%PDF-1.7\n'), randomBytes(2000)]));
    const doc = await models.PendingReport.create({
      testOrderId,
      blobId: blob.id,
      fileName: 'report.pdf',
      contentType: 'application/pdf',
      size: blob.size,
      sha256: blob.sha256,
      amended: false,
      tnp: false,
      uploadedBy: { id: 'u1', name: 'Lab User' },
      createdOn: new Date(+expiresOn - PENDING_REPORT_TTL_MS),
      expiresOn,
      submittedOn: null,
      version: null,
    });
    return { id: String(doc._id), blobId: blob.id };
  };
  const blobExists = (id: string) =>
    sys.ctx.blobs.size(id).then(
      () => true,
      () => false,
    );

  it('the worker process schedules the sweep with the configured interval', async () => {
    const queue = sys.ctx.queues.get(REPORT_SWEEP_QUEUE)!;
    await vi.waitFor(
      async () => expect((await queue.getJobScheduler(REPORT_SWEEP_QUEUE))?.every).toBe(EVERY_MS),
      { timeout: 10_000, interval: 100 },
    );
  });

  it('removes expired unsubmitted uploads and their files; keeps young ones and files a test order holds', async () => {
    const since = new Date();
    const longAgo = new Date(Date.now() - 2 * PENDING_REPORT_TTL_MS);
    const stale = await Promise.all([1, 2, 3].map(() => pending('to-stale', longAgo)));
    const young = await pending('to-young', new Date(Date.now() + PENDING_REPORT_TTL_MS));
    // submitted, then the process died before the upload record was marked: the test order holds the file
    const held = await pending('to-held', longAgo);
    await models.TestOrder.collection.insertOne({
      _id: 'to-held',
      reports: [{ version: 1, fileId: held.blobId }],
    } as never);

    await vi.waitFor(
      async () => {
        const left = await models.PendingReport.find({}, { _id: 1 }).lean().exec();
        expect(left.map((d) => String(d._id))).toEqual([young.id]);
      },
      { timeout: 15_000, interval: 200 },
    );
    for (const s of stale) expect(await blobExists(s.blobId)).toBe(false);
    expect(await blobExists(young.blobId)).toBe(true);
    expect(await blobExists(held.blobId)).toBe(true);
    // each removal committed with its entry (docs/audit.md): a report deleted, by the system (this process runs
    // no chainer: the entries wait in the inbox); the test order of the stale ones is unknown here, so no patient
    const removed = await auditEntriesSince(sys.ctx.mongo, since, { changes: true });
    expect(removed.map((e) => [e.what.type, e.what.id, e.action]).sort()).toEqual([
      ['report', 'to-held', 'delete'],
      ['report', 'to-stale', 'delete'],
      ['report', 'to-stale', 'delete'],
      ['report', 'to-stale', 'delete'],
    ]);
    for (const e of removed)
      expect(e).toMatchObject({
        who: { userId: 'system', role: 'SYSTEM' },
        what: { patientId: null },
        route: null,
        from: { requestId: null },
      });
  });

  it('a run goes on past one page of expired uploads', async () => {
    const longAgo = new Date(Date.now() - 2 * PENDING_REPORT_TTL_MS);
    // stop the schedule, so this run is the only sweeper
    const off = defineReportUploadSweep(
      { ...sys.ctx, config: { ...sys.ctx.config, REPORT_UPLOAD_SWEEP_EVERY_MS: 0 } } as PlatformContext,
      models,
    );
    await off.schedule();
    const queue = sys.ctx.queues.get(REPORT_SWEEP_QUEUE)!;
    expect(await queue.getJobScheduler(REPORT_SWEEP_QUEUE)).toBeFalsy();
    // a run already taken finishes first
    await vi.waitFor(
      async () =>
        expect(await queue.getJobCounts('active', 'delayed', 'waiting')).toMatchObject({
          active: 0,
          delayed: 0,
          waiting: 0,
        }),
      { timeout: 10_000, interval: 100 },
    );
    for (let i = 0; i < 3; i++)
      await Promise.all(Array.from({ length: 40 }, () => pending(`to-page-${i}`, longAgo)));
    expect(await off.run()).toBe(120);
    expect(await models.PendingReport.countDocuments({ testOrderId: /^to-page-/ }).exec()).toBe(0);
  });
});
