import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent } from '@onco/events';
import { createTestSystem, testProcesses, waitUntil as waitFor, type TestSystem } from '@onco/testing';
import { createTestOrdersFromSubmission, labModels, seedDomainPreferences, type LabModels } from '../index';
import type { ManifestWorkerProcessMessage } from '../../test/manifest-worker-process';
import { HEADER, manifestFile, row, submission } from '../../test/manifests';
import { handleAttachmentEvent } from './consumer';
import { defineSampleManifestQueue, type SampleManifestQueue } from './queue';
import { manifestProgress } from './result-routes';

/**
 * The manifest worker's process is killed outright (SIGKILL: no shutdown, its BullMQ lock left to expire) inside
 * the apply transaction, after half of a 2,000-row manifest's samples were inserted. Nothing of the transaction
 * is visible, before or after the kill; a fresh worker process takes the stalled job over (BullMQ's stalled-job
 * check, production settings: up to a minute) and applies the manifest whole: every sample exactly once.
 */
const WORKER_SCRIPT = fileURLToPath(new URL('../../test/manifest-worker-process.ts', import.meta.url));

describe('sample-manifest worker killed (SIGKILL) mid-apply: a fresh worker applies the manifest whole, once', () => {
  let sys: TestSystem;
  let lab: LabModels;
  let queue: SampleManifestQueue;
  let procs: ReturnType<typeof testProcesses>;

  const startWorker = (stall = '') =>
    procs.start<ManifestWorkerProcessMessage>(WORKER_SCRIPT, {
      MANIFEST_STALL: stall,
      // a dead worker's job is taken by the next one within ~10 s instead of ~60 s
      QUEUE_LOCK_MS: '5000',
    });

  beforeAll(async () => {
    sys = await createTestSystem({ WORKERS: 'false' });
    procs = testProcesses(sys.config);
    lab = labModels(sys.ctx.mongo);
    queue = defineSampleManifestQueue(sys.ctx, { models: lab });
    await seedDomainPreferences(lab);
  }, 120_000);
  afterAll(async () => {
    await procs?.stopAll();
    await queue?.close();
    await sys?.close();
  }, 60_000);

  it('kills the worker inside the transaction; nothing is half-applied; a new worker creates each sample once', async () => {
    const run = randomBytes(3).toString('hex');
    const reqIds = Array.from({ length: 20 }, (_, i) => `k${i}-${run}`);
    for (const id of reqIds) await createTestOrdersFromSubmission(lab, submission(id));
    const rows: unknown[][] = [HEADER];
    for (let i = 0; i < 2000; i++)
      rows.push(
        row(`TRF-${reqIds[i % 20]}`, i % 2 ? 'NORMAL' : 'TUMOR', `K-${run}-${i}`, {
          'Sample Group ID': `KG-${run}-${i % 20}`,
        }),
      );
    const xlsx = manifestFile(rows, 'xlsx');
    const stored = await sys.ctx.blobs.put(Readable.from([xlsx]));
    const attachmentId = `kill-${run}`;
    const event = createEvent('attachment', {
      data: {
        attachmentId,
        change: 'uploaded',
        type: 'SAMPLE_MANIFEST',
        name: 'kill.xlsx',
        contentType: 'application/octet-stream',
        size: stored.size,
        sha256: createHash('sha256').update(xlsx).digest('hex'),
        blobId: stored.id,
        accountId: 'acc-M',
        accountName: 'Manifest Oncology',
        requisitionId: null,
        uploadedBy: { id: 'u-kill', name: 'Kill Test' },
        uploaderScope: { allAccounts: true, accountIds: [], physicianIds: [], mayEditSamples: true },
        changedBy: { id: 'u-kill', name: 'Kill Test' },
        changedOn: new Date().toISOString(),
      },
    });

    // queued before any worker runs: the manifest says so (GET /sampleManifests/{id}'s progress)
    expect(await handleAttachmentEvent(lab, queue, event)).toBe('queued');
    expect(await manifestProgress(queue.queue, attachmentId)).toEqual({
      state: 'QUEUED',
      phase: null,
      done: 0,
      total: 0,
    });
    const first = startWorker(attachmentId);
    await first.until((m) => 'ready' in m, 'the first worker to start');
    await first.until((m) => 'stalled' in m, 'the apply to reach half of the samples');
    // the job's progress: applying, half of the new samples written (in the open transaction)
    await waitFor(
      async () => {
        const p = await manifestProgress(queue.queue, attachmentId);
        return p?.state === 'PROCESSING' && p.phase === 'APPLYING' && p.done === 1000 && p.total === 2000;
      },
      'the progress to say 1,000 of 2,000 samples applied',
      10_000,
    );
    // inside an open transaction: nothing visible outside it
    expect(await lab.Sample.countDocuments({ specimenId: { $regex: `^K-${run}-` } }).exec()).toBe(0);
    expect(await (await queue.queue.getJob(attachmentId))!.getState()).toBe('active');
    first.child.kill('SIGKILL');
    // the worker is gone (its process exited): what it had not committed can never appear
    expect(await first.exited).toBe('SIGKILL');
    expect(await lab.Sample.countDocuments({ specimenId: { $regex: `^K-${run}-` } }).exec()).toBe(0);
    expect((await lab.SampleManifest.findById(attachmentId).lean().exec())!.status).toBe('UPLOADED');

    const second = startWorker();
    await second.until((m) => 'ready' in m, 'the second worker to start');
    const job = await waitFor(
      async () => {
        const j = await queue.queue.getJob(attachmentId);
        const state = await j!.getState();
        if (state === 'failed') throw new Error(`the job failed: ${j!.failedReason}`);
        // read again once completed: `j` may have been read just before, without its return value
        return state === 'completed' ? queue.queue.getJob(attachmentId) : null;
      },
      'the job to complete in the new worker',
      150_000,
    );
    expect(job.returnvalue).toMatchObject({ outcome: 'PROCESSED', rows: 2000, created: 2000 });
    const samples = await lab.Sample.find(
      { specimenId: { $regex: `^K-${run}-` } },
      { specimenId: 1, outbox: 1 },
    )
      .lean()
      .exec();
    expect(samples).toHaveLength(2000);
    expect(new Set(samples.map((s) => s.specimenId)).size).toBe(2000);
    // each with exactly one pending `sample` event (no relay in this system): one event each, in effect
    expect(samples.every((s) => s.outbox.length === 1 && s.outbox[0].type === 'sample.changed')).toBe(true);
    const m = await lab.SampleManifest.findById(attachmentId).lean().exec();
    expect(m).toMatchObject({ status: 'PROCESSED', rows: 2000, created: 2000 });
    expect(m!.outbox.map((o) => o.type)).toEqual(['sample-manifest.processed']);
    const groups = await lab.SampleGroup.find({ sampleGroupId: { $regex: `^KG-${run}-` } })
      .lean()
      .exec();
    expect(groups).toHaveLength(20);
    expect(groups.reduce((n, g) => n + g.tumors.length + g.normals.length, 0)).toBe(2000);
  }, 300_000);
});
