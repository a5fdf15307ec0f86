import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, parseEvent } from '@onco/events';
import {
  authOf,
  createTestSystem,
  createUser,
  waitUntil as waitFor,
  type Auth,
  type TestSystem,
} from '@onco/testing';
import { completeForm } from '../../test/fixtures';
import { submitThroughApi } from '../../test/submit';
import { requisitionModels } from '../models';
import { defineTrfQueue, submissionKeyOf, trfJobId, type TrfQueue } from './trf-queue';

/**
 * A submit (and an Edit that changes the form) queues its TRF PDF job itself, at once after the commit (docs/decisions.md "The TRF job, queued
 * twice"): in a process that runs no consumers and no workers (an API server), the job is in the queue with no
 * Kafka in the way, under the id the requisition-submitted consumer would give it (so that add is a no-op).
 * Real store, Redis; Kafka unused by this path.
 */
const ACC = { id: 'acc-trf-submit', name: 'TRF At Submit Clinic' };
const API = '/portal/api/v1/testOrderForms';

describe('a submit queues its TRF job without waiting for its event (real store, Redis)', () => {
  let sys: TestSystem;
  let trf: TrfQueue;
  let auth: Auth;

  beforeAll(async () => {
    sys = await createTestSystem({ WORKERS: 'false' });
    trf = defineTrfQueue(sys.ctx, { models: requisitionModels(sys.ctx.mongo) });
    auth = await authOf(
      sys,
      await createUser(sys, 'ROLE_NPI', { account: ACC, physicianId: 'phys-trf-submit' }),
    );
  }, 120_000);
  afterAll(async () => {
    await trf?.close();
    await sys?.close();
  });

  const submit = async (createPdf: boolean) =>
    (
      await submitThroughApi(sys, auth, completeForm({ accountId: ACC.id, physicianId: 'phys-trf-submit' }), {
        createPdf,
      })
    ).id;

  /** the requisition-submitted event committed with the submission (still in the outbox: no relay runs here) */
  async function submittedEvent(id: string) {
    const doc = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as never });
    const raw = (doc!.outbox as Array<{ value: string }>).map((o) => parseEvent(JSON.parse(o.value)));
    return raw.find((e) => e.type === EVENT_TYPES['requisition-submitted'])!;
  }

  it('the job is queued by the submit, under the id its event would queue it with', async () => {
    const id = await submit(true);
    const event = await submittedEvent(id);
    const data = event.data as { submittedOn: string; createPdf: boolean };
    expect(data.createPdf).toBe(true);
    const jobId = trfJobId(id, submissionKeyOf(data.submittedOn));
    const job = await waitFor(() => trf.queue.getJob(jobId), 'the TRF job queued by the submit');
    expect(job.data).toMatchObject({ requisitionId: id, submittedOn: data.submittedOn, eventId: event.id });
    // the consumer's add of the same submission is the same job, not a second one
    await trf.add({
      requisitionId: id,
      submissionKey: submissionKeyOf(data.submittedOn),
      submittedOn: data.submittedOn,
      eventId: event.id,
    });
    const jobs = (await trf.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'])).filter(
      (j) => j.data.requisitionId === id,
    );
    expect(jobs.map((j) => j.id)).toEqual([jobId]);
  });

  it('a submit without createPdf queues nothing', async () => {
    const id = await submit(false);
    const event = await submittedEvent(id);
    expect((event.data as { createPdf: boolean }).createPdf).toBe(false);
    // the submit answered after its commit; the add, had there been one, goes right after: wait for a later
    // submit's job to be in the queue, then look for this one's
    const later = await submit(true);
    await waitFor(
      async () =>
        (await trf.queue.getJobs(['waiting', 'delayed', 'prioritized'])).some(
          (j) => j.data.requisitionId === later,
        ),
      "the later submit's job",
    );
    const jobs = await trf.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized', 'completed']);
    expect(jobs.filter((j) => j.data.requisitionId === id)).toEqual([]);
  });
  it("an Edit that changes the form queues its new TRF version's job itself, under its event's job id", async () => {
    const id = await submit(false);
    const before = await sys.app.inject({ method: 'GET', url: `${API}/${id}`, headers: auth });
    const doc = before.json();
    const edit = await sys.app.inject({
      method: 'PUT',
      url: `${API}/${id}`,
      headers: auth,
      payload: { version: doc.version, tumorSpecimen: { ...doc.tumorSpecimen, stage: 'IV' } },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const stored = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as never });
    const changed = (stored!.outbox as Array<{ value: string }>)
      .map((o) => parseEvent(JSON.parse(o.value)))
      .find((e) => e.type === EVENT_TYPES['requisition-changed'])!;
    const data = changed.data as { changes: string[]; changedOn: string; changedBy: { id: string } };
    expect(data.changes).toContain('form-edited');
    const job = await waitFor(
      () => trf.queue.getJob(trfJobId(id, submissionKeyOf(data.changedOn))),
      "the Edit's TRF version job",
    );
    expect(job.data).toMatchObject({ requisitionId: id, editedOn: data.changedOn, eventId: changed.id });
    expect(job.data.editedBy?.id).toBe(data.changedBy.id);
  });
});
