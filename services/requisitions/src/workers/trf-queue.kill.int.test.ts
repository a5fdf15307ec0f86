import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  blobFiles,
  createTestSystem,
  createUser,
  testProcesses,
  waitUntil as waitFor,
  type TestSystem,
} from '@onco/testing';
import { requisitionModels, type RequisitionModels } from '../models';
import { pdfText } from '../../test/pdf';
import type { TrfWorkerProcessMessage } from '../../test/trf-worker-process';
import { defineTrfQueue, submissionKeyOf, trfAttachmentId, trfJobId, type TrfQueue } from './trf-queue';

/**
 * The TRF PDF worker's process is killed outright (SIGKILL: no shutdown, no error handling, its BullMQ lock
 * left to expire) in the middle of two jobs: one after rendering, one after inserting the TRF attachment but
 * before the requisition's list was updated. A fresh worker process takes both jobs over (BullMQ's stalled-job
 * check, with the production settings: the TRF queue's own short lock, TRF_LOCK_MS, so within seconds) and each
 * submission ends with exactly one
 * TRF attachment, one file, listed on its requisition and served by Print.
 */
const ACC = { id: 'acc-trf-kill', name: 'Killed Worker Clinic' };
const WORKER_SCRIPT = fileURLToPath(new URL('../../test/trf-worker-process.ts', import.meta.url));

describe('TRF PDF worker process killed (SIGKILL) mid-job: a fresh worker finishes, exactly one TRF each', () => {
  let sys: TestSystem;
  let models: RequisitionModels;
  let trf: TrfQueue;
  let procs: ReturnType<typeof testProcesses>;

  /** a TRF worker in its own process, against this test system's database, Redis and file store */
  function startWorker(stall: { rendered?: string; inserted?: string } = {}) {
    return procs.start<TrfWorkerProcessMessage>(WORKER_SCRIPT, {
      TRF_STALL_RENDERED: stall.rendered ?? '',
      TRF_STALL_INSERTED: stall.inserted ?? '',
    });
  }

  async function submitted() {
    const id = randomUUID();
    const number = `TRK${randomBytes(3).toString('hex').toUpperCase()}`;
    const submittedOn = new Date(Date.now() - 1000);
    await models.Requisition.create({
      _id: id,
      testRequisitionId: number,
      status: 'SUBMITTED',
      account: { ...ACC, accountId: 'A-2002' },
      physician: { id: 'phys-trf-kill', name: 'Dr Kill Test', userId: '1234567893' },
      patient: {
        id: 'pat-trf-kill',
        firstName: 'Rosalind',
        lastName: 'Franklin',
        name: 'Rosalind Franklin',
        dateOfBirth: '1970-07-25',
        birthSex: 'FEMALE',
      },
      orderInformation: { nextDx: true, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
      tumorSpecimen: { diagnosis: 'LUNG', icd10Codes: 'C34.90', specimenType: 'FFPE_BLOCK' },
      approvals: [{ approvedBy: { id: 'u-kill', name: 'Dr Kill Test' }, createdOn: submittedOn }],
      consent: true,
      outbox: [],
    });
    return { id, number, submittedOn, key: submissionKeyOf(submittedOn) };
  }

  beforeAll(async () => {
    // no workers in this process: only the forked worker processes take the jobs
    sys = await createTestSystem({ WORKERS: 'false' });
    procs = testProcesses(sys.config);
    models = requisitionModels(sys.ctx.mongo);
    trf = defineTrfQueue(sys.ctx, { models });
  }, 120_000);
  afterAll(async () => {
    await procs?.stopAll();
    await trf?.close();
    await sys?.close();
  }, 60_000);

  it('kills the worker after one job rendered and another inserted its attachment; a new worker completes both', async () => {
    const a = await submitted(); // killed after its render, before its file was stored
    const b = await submitted(); // killed after its attachment insert, before the requisition's list update
    const blobsBefore = new Set(await blobFiles(sys.config.FILE_STORE_DIR));

    const first = startWorker({ rendered: a.number, inserted: b.id });
    await first.until((m) => 'ready' in m, 'the first worker to start');
    for (const s of [a, b])
      await trf.add({ requisitionId: s.id, submissionKey: s.key, submittedOn: s.submittedOn.toISOString() });
    await first.until((m) => 'stalled' in m && m.stalled === 'rendered', 'job A to render');
    await first.until((m) => 'stalled' in m && m.stalled === 'inserted', "job B's attachment insert");

    // mid-job state: A has nothing stored; B's record exists but its requisition does not list it yet
    expect(await models.Attachment.countDocuments({ 'testOrderForm.id': a.id }).exec()).toBe(0);
    expect(await models.Attachment.findById(trfAttachmentId(b.id, b.key)).lean().exec()).toBeTruthy();
    expect((await models.Requisition.findById(b.id).lean().exec())!.attachments).toEqual([]);
    for (const s of [a, b])
      expect(await (await trf.queue.getJob(trfJobId(s.id, s.key)))!.getState()).toBe('active');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    // a fresh worker: BullMQ finds both jobs stalled (their locks expired with the dead process) and runs them
    const second = startWorker();
    await second.until((m) => 'ready' in m, 'the second worker to start');
    const jobs = await waitFor(
      async () => {
        const js = await Promise.all([a, b].map((s) => trf.queue.getJob(trfJobId(s.id, s.key))));
        const states = await Promise.all(js.map((j) => j!.getState()));
        if (states.includes('failed')) throw new Error(`a job failed: ${js.map((j) => j!.failedReason)}`);
        if (!states.every((st) => st === 'completed')) return null;
        // read again: a job fetched before it completed carries no return value yet
        return Promise.all([a, b].map(async (s) => (await trf.queue.getJob(trfJobId(s.id, s.key)))!));
      },
      'both jobs to complete in the new worker',
      150_000,
    );
    expect(jobs[0].returnvalue).toMatchObject({ outcome: 'created' });
    expect(jobs[1].returnvalue).toMatchObject({ outcome: 'exists' });

    const added = (await blobFiles(sys.config.FILE_STORE_DIR)).filter((f) => !blobsBefore.has(f));
    const user = await createUser(sys, 'ROLE_NPI', { account: ACC });
    const auth = await authOf(sys, user);
    const blobs: string[] = [];
    for (const s of [a, b]) {
      const list = await models.Attachment.find({ 'testOrderForm.id': s.id }).lean().exec();
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ _id: trfAttachmentId(s.id, s.key), type: 'TRF', deleted: false });
      blobs.push(list[0].blobId!);
      const requisition = await models.Requisition.findById(s.id).lean().exec();
      expect(requisition!.attachments.map((x) => x.id)).toEqual([list[0]._id]);
      const res = await sys.app.inject({
        method: 'GET',
        url: `/portal/api/v1/testOrderForms/${s.id}/trf`,
        headers: auth,
      });
      expect(res.statusCode).toBe(200);
      expect(await pdfText(res.rawPayload)).toContain(s.number);
    }
    // one file per submission: A's killed render never stored one, B's stored file is the one kept
    expect(added.sort()).toEqual(blobs.sort());
  }, 300_000);
});
