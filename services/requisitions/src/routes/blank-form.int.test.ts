import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authOf, createTestSystem, createUser, type Auth, type TestSystem } from '@onco/testing';
import { createBaseApp, AREAS, type App } from '@onco/platform';
import { createIdentity } from '@onco/identity';
import {
  blankFormDocumentId,
  blankFormJobId,
  createRequisitionsModule,
  generatedDocumentModel,
  PDF_QUEUE,
} from '../index';
import { MSG_FORM_BEING_GENERATED } from './blank-form';
import { pdfInfo, pdfText } from '../../test/pdf';

describe('GET /portal/api/v1/testOrderForms/downloadBlankForm (real Redis, BullMQ, chromium, the store)', () => {
  let sys: TestSystem;
  let auth: Auth;
  const url = '/portal/api/v1/testOrderForms/downloadBlankForm';

  beforeAll(async () => {
    sys = await createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'requisitions' });
    const user = await createUser(sys, 'ROLE_NPI', {
      account: { id: 'acc-blank', name: 'Blank Form Clinic' },
    });
    auth = await authOf(sys, user);
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('needs a session', async () => {
    const res = await sys.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
  });

  it('generates the form through the pdf queue on first use and returns a real PDF', async () => {
    const started = Date.now();
    const res = await sys.app.inject({ method: 'GET', url, headers: auth });
    const ms = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="TRF Document.pdf"');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(Number(res.headers['content-length'])).toBe(pdf.length);
    const text = await pdfText(pdf);
    expect(text).toContain('Test Requisition Form');
    expect(text).toContain('102-210-C');
    expect((await pdfInfo(pdf)).pageSize).toContain('letter');

    const Generated = generatedDocumentModel(sys.ctx.mongo);
    const doc = await Generated.findById(blankFormDocumentId('102-210-C')).lean().exec();
    expect(doc).toMatchObject({ formVersion: '102-210-C', size: pdf.length, contentType: 'application/pdf' });
    expect(doc!.sha256).toMatch(/^[0-9a-f]{64}$/);
    console.info(`[downloadBlankForm] first (generate) ${ms} ms, render ${doc!.renderMs} ms`);
  });

  it('serves the second download from the cache: one record, one job', async () => {
    const started = Date.now();
    const res = await sys.app.inject({ method: 'GET', url, headers: auth });
    const ms = Date.now() - started;
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    console.info(`[downloadBlankForm] second (cached) ${ms} ms`);

    expect(await generatedDocumentModel(sys.ctx.mongo).countDocuments({}).exec()).toBe(1);
    const queue = sys.ctx.queues.get(PDF_QUEUE)!;
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
    expect(counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 1 });
    const job = await queue.getJob(blankFormJobId('102-210-C'));
    expect(job?.returnvalue).toMatchObject({ documentId: 'blank-form:102-210-C', created: true });
    expect(job?.attemptsMade).toBe(1);
  });

  it('regenerates when the cached blob is gone (a new job under the same deterministic id)', async () => {
    const Generated = generatedDocumentModel(sys.ctx.mongo);
    const before = await Generated.findById(blankFormDocumentId('102-210-C')).lean().exec();
    await sys.ctx.blobs.remove(before!.blobId);
    const res = await sys.app.inject({ method: 'GET', url, headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const after = await Generated.find({}).lean().exec();
    expect(after).toHaveLength(1);
    expect(after[0].blobId).not.toBe(before!.blobId);
  });

  it('answers 503 "being generated" when no worker finishes in time', async () => {
    // a second portal app on the same connections, with no document, no worker for a fresh prefix and a short wait
    await generatedDocumentModel(sys.ctx.mongo).deleteMany({}).exec();
    const ctx = {
      ...sys.ctx,
      config: { ...sys.ctx.config, QUEUE_PREFIX: `${sys.config.QUEUE_PREFIX}_noworker` },
    };
    const { QueueRegistry } = await import('@onco/platform');
    ctx.queues = new QueueRegistry(
      sys.ctx.redis,
      () => sys.ctx.redis,
      ctx.config.QUEUE_PREFIX,
      sys.ctx.logger,
    );
    const module = createRequisitionsModule(ctx, { blankFormWaitMs: 500 });
    const app: App = await createBaseApp(ctx, createIdentity(sys.ctx.mongo, sys.config).resolver);
    await app.register(module.areas.portal!, { prefix: AREAS.portal });
    try {
      const res = await app.inject({ method: 'GET', url, headers: auth });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        status: 503,
        code: 'PDF_NOT_READY',
        message: MSG_FORM_BEING_GENERATED,
      });
      // the job stays queued for a worker to pick up; asking again does not add a second one
      const again = await app.inject({ method: 'GET', url, headers: auth });
      expect(again.statusCode).toBe(503);
      const counts = await ctx.queues.get(PDF_QUEUE)!.getJobCounts('waiting');
      expect(counts.waiting).toBe(1);
      await ctx.queues.get(PDF_QUEUE)!.obliterate({ force: true });
    } finally {
      await app.close();
      await ctx.queues.close();
    }
  });
});
