import { randomBytes, randomUUID } from 'node:crypto';
import { QueueEvents, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEvent,
  outboxForInsert,
  topicFor,
  PROCESSED_EVENTS_COLLECTION,
  type EventEnvelope,
} from '@onco/events';
import {
  authOf,
  blobFiles,
  createTestSystem,
  createUser,
  TEST_PASSWORD,
  waitUntil as waitFor,
  type Auth,
  type TestSystem,
} from '@onco/testing';
import { completeForm } from '../../test/fixtures';
import { submitThroughApi } from '../../test/submit';
import { linkAttachment, requisitionModels, type RequisitionModels } from '../models';
import { pdfText } from '../../test/pdf';
import { TRF_CONSUMER_GROUP } from '../consumers/requisition-submitted';
import {
  defineTrfQueue,
  submissionKeyOf,
  trfAttachmentId,
  trfJobId,
  TRF_QUEUE,
  type TrfJobData,
  type TrfQueue,
} from './trf-queue';

const ACC_A = { id: 'acc-trf-a', name: 'TRF Oncology Clinic' };
const ACC_B = { id: 'acc-trf-b', name: 'Other Clinic' };
const ICD = ['C34.90', 'C50.911', 'Z85.3'];
const SIGNER = { id: 'user-signer', name: 'Dr Grace Hopper' };

/** a stand-in for a BullMQ job when calling the processor directly */
const fakeJob = (data: TrfJobData, attemptsMade = 0) =>
  ({ id: 'direct', data, attemptsMade, log: async () => 0 }) as unknown as Job<TrfJobData>;

describe('TRF PDFs: requisition-submitted consumer, trf-pdf queue, Print (real Kafka, the store, Redis, chromium)', () => {
  let sys: TestSystem;
  let models: RequisitionModels;
  let trf: TrfQueue;
  let events: QueueEvents;
  let authA: Auth;
  let authB: Auth;
  let group: string;

  /** a submitted requisition written directly through the model; with `event`, its requisition-submitted
   * event goes out through the outbox (relay -> Kafka -> the consumer) exactly as the submit route's does */
  async function submitted(
    opts: { createPdf?: boolean; event?: boolean; status?: 'SUBMITTED' | 'DRAFT' } = {},
  ) {
    const id = randomUUID();
    const number = `TRF${randomBytes(3).toString('hex').toUpperCase()}`;
    const submittedOn = new Date(Date.now() - 1000);
    const testOrder = {
      id: `${id}-1`,
      testOrderId: `${number}-1`,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'TEST_ORDERED',
    } as const;
    const event = createEvent('requisition-submitted', {
      data: {
        requisitionId: id,
        testRequisitionId: number,
        accountId: ACC_A.id,
        physicianId: 'phys-trf-a',
        patientId: 'pat-trf-a',
        submittedBy: SIGNER,
        submittedOn: submittedOn.toISOString(),
        createPdf: opts.createPdf ?? true,
        testOrders: [{ ...testOrder }],
        clinicalReviewStatus: null,
        icd10Codes: ICD,
        diagnosis: null,
      },
    });
    await models.Requisition.create({
      _id: id,
      testRequisitionId: number,
      status: opts.status ?? 'SUBMITTED',
      account: { ...ACC_A, accountId: 'A-1001' },
      physician: {
        id: 'phys-trf-a',
        name: 'Dr Ordering Physician',
        userId: '1234567893',
        phone: '6175550100',
      },
      hospitalLocation: { id: 'loc-1', name: 'Main Campus', address: { city: 'Boston', state: 'MA' } },
      patient: {
        id: 'pat-trf-a',
        userId: 'PAT-000123',
        firstName: 'Marie',
        lastName: 'Sklodowska',
        name: 'Marie Sklodowska',
        dateOfBirth: '1967-11-07',
        birthSex: 'FEMALE',
        address: { street: '1 Radium Way', city: 'Boston', state: 'MA', postalCode: '02115' },
      },
      orderInformation: { nextDx: true, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
      testOrders: [{ ...testOrder }],
      pathologist: { id: 'path-1', name: 'Dr Path Ologist', npi: '1111111111' },
      tumorSpecimen: {
        diagnosis: 'LUNG',
        icd10Codes: ICD.join(','),
        stage: 'III',
        specimenId: 'BLK-42_A',
        specimenType: 'FFPE_BLOCK',
        collectionDate: '2026-10-01',
        content: 35,
      },
      normalSpecimen: {
        specimenType: 'BLOOD',
        collectionMode: 'COLLECT_IN_CLINIC',
        collectionDate: '2026-11-20',
      },
      billings: [
        {
          id: 'bill-1',
          billingType: 'INSURANCE',
          preference: 'PRIMARY',
          insuranceProvider: 'Acme Health',
          payorId: 'P-77',
          insuredName: 'Marie Sklodowska',
          policyNumber: 'POL-123',
        },
      ],
      approvals: [{ approvedBy: SIGNER, createdOn: submittedOn }],
      consent: true,
      outbox: opts.event === false ? [] : outboxForInsert(event),
    });
    if (opts.event !== false) sys.ctx.nudgeOutbox();
    return { id, number, event, submittedOn, key: submissionKeyOf(submittedOn) };
  }

  const trfs = (requisitionId: string) =>
    models.Attachment.find({ 'testOrderForm.id': requisitionId, type: 'TRF' }).lean().exec();

  async function queueIdle() {
    await waitFor(async () => {
      const c = await trf.queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return c.waiting + c.active + c.delayed + c.prioritized === 0;
    }, 'the trf-pdf queue to be idle');
  }

  const processed = (eventId: string) =>
    sys.ctx.mongo.db!.collection(PROCESSED_EVENTS_COLLECTION).findOne({ _id: `${group}:${eventId}` as any });

  beforeAll(async () => {
    sys = await createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'requisitions' });
    models = requisitionModels(sys.ctx.mongo);
    group = `${sys.config.TOPIC_PREFIX}${TRF_CONSUMER_GROUP}`;
    // a producer handle on the system's queue (the system's own worker processes the jobs)
    trf = defineTrfQueue(sys.ctx, { models });
    events = new QueueEvents(TRF_QUEUE, {
      connection: { ...sys.ctx.redis.options, maxRetriesPerRequest: null, enableOfflineQueue: true },
      prefix: sys.config.QUEUE_PREFIX,
    });
    await events.waitUntilReady();
    const [a, b] = await Promise.all([
      createUser(sys, 'ROLE_NPI', { account: ACC_A }),
      createUser(sys, 'ROLE_NPI', { account: ACC_B }),
    ]);
    authA = await authOf(sys, a);
    authB = await authOf(sys, b);
  }, 120_000);
  afterAll(async () => {
    await events?.close();
    await trf?.close();
    await sys?.close();
  });

  it('renders the TRF of a submission from its event, stores it as the TRF attachment, and Print serves it', async () => {
    const s = await submitted();
    const [att] = await waitFor(async () => {
      const list = await trfs(s.id);
      return list.length ? list : null;
    }, 'the TRF attachment');
    expect(att).toMatchObject({
      _id: trfAttachmentId(s.id, s.key),
      type: 'TRF',
      contentType: 'application/pdf',
      submissionKey: s.key,
      account: ACC_A,
      deleted: false,
    });
    expect(att.sha256).toMatch(/^[0-9a-f]{64}$/);
    await queueIdle();
    const requisition = await models.Requisition.findById(s.id).lean().exec();
    expect(requisition!.attachments).toEqual([expect.objectContaining({ id: att._id, type: 'TRF' })]);

    const res = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/testOrderForms/${s.id}/trf`,
      headers: authA,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="TRF TRF[0-9A-F]+\.pdf"/);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Marie Sklodowska');
    expect(text).toContain(s.number);
    for (const code of ICD) expect(text).toContain(code);
    expect(text).toContain('102-210-C');
    expect(text).toContain(SIGNER.name);
    expect(text).toContain('Acme Health');
    expect(text).toContain('BLK-42_A');

    // another account's user does not see the requisition at all
    const other = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/testOrderForms/${s.id}/trf`,
      headers: authB,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Requisition not found');
  });

  it('end to end through the API: draft, sign, submit?createPdf=true -> the TRF, listed on the requisition and printable', async () => {
    const u = await createUser(sys, 'ROLE_NPI', { account: ACC_A, physicianId: 'phys-trf-a' });
    const auth = await authOf(sys, u);
    const API = '/portal/api/v1/testOrderForms';
    const form = completeForm({ accountId: ACC_A.id, physicianId: 'phys-trf-a' });
    const sub = await submitThroughApi(sys, auth, form, { createPdf: true });
    const id = sub.id;
    const number = sub.testRequisitionId;

    await waitFor(async () => (await trfs(id)).length > 0, 'the TRF of the submitted requisition');
    await queueIdle();
    const shown = await sys.app.inject({ method: 'GET', url: `${API}/${id}`, headers: auth });
    expect(shown.json().attachments).toEqual([
      expect.objectContaining({ type: 'TRF', contentType: 'application/pdf' }),
    ]);
    const res = await sys.app.inject({ method: 'GET', url: `${API}/${id}/trf`, headers: auth });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain(number);
    expect(text).toContain('C34.90');
    expect(text).toContain('Z85.118');
    expect(text).toContain(`${u.firstName} ${u.lastName}`);
    // the attachment downloads as itself too
    const att = shown.json().attachments[0];
    const dl = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/attachments/${att.id}/download`,
      headers: auth,
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it('an Edit that changes the form makes a new TRF version: Print serves it, the first stays listed, with who and when', async () => {
    const u = await createUser(sys, 'ROLE_NPI', { account: ACC_A, physicianId: 'phys-trf-edit' });
    const auth = await authOf(sys, u);
    const API = '/portal/api/v1/testOrderForms';
    const form = completeForm({ accountId: ACC_A.id, physicianId: 'phys-trf-edit' });
    const id = (await sys.app.inject({ method: 'POST', url: API, headers: auth, payload: form })).json().id;
    await sys.app.inject({
      method: 'POST',
      url: `${API}/${id}/sign`,
      headers: auth,
      payload: { password: TEST_PASSWORD },
    });
    const sub = await sys.app.inject({
      method: 'POST',
      url: `${API}/submit?createPdf=true`,
      headers: auth,
      payload: { ...form, id },
    });
    expect(sub.statusCode, sub.body).toBe(200);
    await waitFor(async () => (await trfs(id)).length === 1, 'the TRF of the submission');

    // the Edit: the stage and the comment change; a save that changes nothing makes no version
    const edit = await sys.app.inject({
      method: 'PUT',
      url: `${API}/${id}`,
      headers: auth,
      payload: { tumorSpecimen: { ...form.tumorSpecimen, stage: 'IV' }, comment: 'stage corrected' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const second = await waitFor(async () => {
      const list = await trfs(id);
      return list.length === 2 ? list : null;
    }, 'the TRF version of the edit');
    const same = await sys.app.inject({
      method: 'PUT',
      url: `${API}/${id}`,
      headers: auth,
      payload: { comment: 'stage corrected' },
    });
    expect(same.statusCode, same.body).toBe(200);
    const version = second.find((a) => String(a.name).includes('edited'))!;
    expect(version.attachedBy).toEqual({ id: u._id, name: `${u.firstName} ${u.lastName}` });

    // Print serves the newest; both are on the order's list
    const res = await sys.app.inject({ method: 'GET', url: `${API}/${id}/trf`, headers: auth });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Edited');
    const shown = (await sys.app.inject({ method: 'GET', url: `${API}/${id}`, headers: auth })).json();
    expect(shown.attachments.filter((a: { type: string }) => a.type === 'TRF')).toHaveLength(2);

    // the order's timeline: the edit, naming the fields it changed
    const edited = await waitFor(async () => {
      const content = (
        await sys.app.inject({ method: 'GET', url: `${API}/${id}/timeline`, headers: auth })
      ).json().content as Array<{ kind: string; data: { changedFields?: string[] } }>;
      return content.find((e) => e.kind.split(',').includes('form-edited')) ?? null;
    }, 'the form-edited timeline entry');
    expect(edited.data.changedFields).toEqual(['tumorSpecimen.stage', 'comment']);
    await queueIdle();
    expect(await trfs(id)).toHaveLength(2);
  });

  it('creates one TRF however often the event arrives (redelivered id, or a new id for the same submission)', async () => {
    const s = await submitted();
    await waitFor(async () => (await trfs(s.id)).length > 0, 'the first TRF');
    await queueIdle();
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);

    // the completed job is gone (as after its retention), so only the job's own idempotency can stop a second TRF
    await (await trf.queue.getJob(trfJobId(s.id, s.key)))?.remove();
    const producer = sys.ctx.kafka.producer();
    await producer.connect();
    try {
      const topic = topicFor('requisition-submitted', sys.config.TOPIC_PREFIX);
      const again: EventEnvelope<'requisition-submitted'> = { ...s.event, id: randomUUID() };
      await producer.send({
        topic,
        messages: [
          { key: s.id, value: JSON.stringify(s.event) },
          { key: s.id, value: JSON.stringify(s.event) },
          { key: s.id, value: JSON.stringify(again) },
        ],
      });
      await waitFor(() => processed(again.id), 'the consumer to handle the re-sent event');
    } finally {
      await producer.disconnect();
    }
    await queueIdle();
    const job = await trf.queue.getJob(trfJobId(s.id, s.key));
    expect(job?.returnvalue).toMatchObject({ outcome: 'exists', attachmentId: trfAttachmentId(s.id, s.key) });
    expect(await trfs(s.id)).toHaveLength(1);
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);
    const requisition = await models.Requisition.findById(s.id).lean().exec();
    expect(requisition!.attachments.filter((a) => a.type === 'TRF')).toHaveLength(1);
  });

  it('does not render when the event does not ask for a PDF', async () => {
    const s = await submitted({ createPdf: false });
    await waitFor(() => processed(s.event.id), 'the consumer to handle the event');
    expect(await trf.queue.getJob(trfJobId(s.id, s.key))).toBeUndefined();
    expect(await trfs(s.id)).toHaveLength(0);
    const res = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/testOrderForms/${s.id}/trf`,
      headers: authA,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No PDF File Available.');
  });

  for (const failAt of ['rendered', 'stored', 'inserted'] as const) {
    it(`retries a job that dies after it ${failAt === 'rendered' ? 'rendered' : failAt === 'stored' ? 'stored the file' : 'inserted the attachment'}, ending with exactly one TRF`, async () => {
      const s = await submitted({ event: false });
      const blobsBefore = new Set(await blobFiles(sys.config.FILE_STORE_DIR));
      const job = await trf.add(
        {
          requisitionId: s.id,
          submissionKey: s.key,
          submittedOn: s.submittedOn.toISOString(),
          failTimes: 1,
          failAt,
        },
        { backoff: { type: 'fixed', delay: 200 } },
      );
      const result = await job.waitUntilFinished(events, 90_000);
      const done = (await trf.queue.getJob(job.id!))!;
      expect(done.attemptsMade).toBe(2);
      expect(done.stacktrace?.[0]).toMatch(new RegExp(`injected failure at ${failAt} on attempt 1`));
      // after the insert, the retry finds the attachment and only completes the requisition's list
      expect(result.outcome).toBe(failAt === 'inserted' ? 'exists' : 'created');
      const list = await trfs(s.id);
      expect(list).toHaveLength(1);
      const requisition = await models.Requisition.findById(s.id).lean().exec();
      expect(requisition!.attachments.map((a) => a.id)).toEqual([list[0]._id]);
      // exactly one new file: a failed attempt's file was removed
      const added = (await blobFiles(sys.config.FILE_STORE_DIR)).filter((b) => !blobsBefore.has(b));
      expect(added).toEqual([list[0].blobId]);
    });
  }

  it('keeps one TRF and one file when two attempts of a submission race', async () => {
    const s = await submitted({ event: false });
    const blobsBefore = new Set(await blobFiles(sys.config.FILE_STORE_DIR));
    const data: TrfJobData = {
      requisitionId: s.id,
      submissionKey: s.key,
      submittedOn: s.submittedOn.toISOString(),
    };
    const [a, b] = await Promise.all([trf.exec(fakeJob(data)), trf.exec(fakeJob(data))]);
    expect([a.outcome, b.outcome].sort()).toEqual(['created', 'exists']);
    const list = await trfs(s.id);
    expect(list).toHaveLength(1);
    const added = (await blobFiles(sys.config.FILE_STORE_DIR)).filter((x) => !blobsBefore.has(x));
    expect(added).toEqual([list[0].blobId]);
    const requisition = await models.Requisition.findById(s.id).lean().exec();
    expect(requisition!.attachments.map((x) => x.id)).toEqual([list[0]._id]);
  });

  it("links an attachment to the requisition's list once, however often, next to other entries (one write)", async () => {
    const s = await submitted({ event: false });
    const ref = (id: string) => ({
      _id: id,
      name: `${id}.pdf`,
      type: 'NOTE' as const,
      size: 10,
      contentType: 'application/pdf',
      createdOn: new Date(),
    });
    // the link's filter {'attachments.id': {$ne: id}} must not match a list of two or more entries that holds
    // the id (the store before, FerretDB v1, did, and pushed a second copy)
    for (const id of ['one', 'two', 'one', 'three', 'two', 'three', 'one'])
      expect(await linkAttachment(models.Requisition, s.id, ref(`${s.id}-${id}`), 'system')).toBe(true);
    const requisition = await models.Requisition.findById(s.id).lean().exec();
    expect(requisition!.attachments.map((a) => a.id)).toEqual(
      ['one', 'two', 'three'].map((id) => `${s.id}-${id}`),
    );
    await models.Requisition.updateOne({ _id: s.id }, { $set: { deleted: true } }).exec();
    expect(await linkAttachment(models.Requisition, s.id, ref(`${s.id}-four`), 'system')).toBe(false);
    expect(await linkAttachment(models.Requisition, randomUUID(), ref('x'), 'system')).toBe(false);
  });

  it('stops without rendering when the requisition is not submitted, deleted, or the job is stale', async () => {
    const draft = await submitted({ event: false, status: 'DRAFT' });
    const job = (key: string, id = draft.id): TrfJobData => ({
      requisitionId: id,
      submissionKey: key,
      submittedOn: new Date(Number(key)).toISOString(),
    });
    expect(await trf.exec(fakeJob(job(draft.key)))).toMatchObject({
      outcome: 'skipped',
      reason: 'not-submitted',
    });
    expect(await trf.exec(fakeJob(job('1', randomUUID())))).toMatchObject({
      outcome: 'skipped',
      reason: 'missing',
    });

    const s = await submitted({ event: false });
    const later = String(Number(s.key) + 60_000);
    expect(await trf.exec(fakeJob(job(later, s.id)))).toMatchObject({ outcome: 'created' });
    // the earlier submission's job arrives late: the later TRF wins, nothing is rendered
    expect(await trf.exec(fakeJob(job(s.key, s.id)))).toMatchObject({ outcome: 'skipped', reason: 'stale' });
    expect(await trfs(s.id)).toHaveLength(1);
    // Print serves the latest
    const res = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/testOrderForms/${s.id}/trf`,
      headers: authA,
    });
    expect(res.statusCode).toBe(200);

    await models.Requisition.updateOne({ _id: s.id }, { $set: { deleted: true } }).exec();
    expect(await trf.exec(fakeJob(job(String(Number(later) + 1), s.id)))).toMatchObject({
      outcome: 'skipped',
      reason: 'deleted',
    });
  });
});
