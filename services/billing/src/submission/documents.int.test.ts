import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eventsIn, settled, waitFor } from '@onco/testing';
import { billingModels, type BillingCaseDoc, type BillingModule } from '../index';
import { qualifiedCase } from '../../test/fixtures';
import { useGatewaySystem } from '../../test/submission-system';
import { BILLING_DOCUMENTS_QUEUE, documentsJobId } from './documents-job';

/**
 * The claim's documents (docs/billing-gateway.md "The claim's documents") on the real services: claims submitted
 * through the API and taken by the gateway stand-in, then the `billing-documents` worker uploads the test's current
 * report and the requisition's current TRF (files in the blob store, found through the lab's and the requisitions'
 * public calls) and records DOC_UPLOAD_SUCCEEDED, _PARTIAL or _FAILED, with a history entry and a billing-case event
 * through the outbox to Kafka. Every wait is on a fact: a case's status, a job's state, the collector's end.
 */
describe('billing documents: the report and TRF behind a taken claim, uploaded once each', () => {
  let n = 0;
  const { sys, h, collector, gateway } = useGatewaySystem({
    tag: 'docs',
    kafka: { ensureTopics: true },
    config: (url) => ({
      WORKERS: 'true',
      WORKER_MODULES: 'billing',
      BILLING_GATEWAY_URL: url,
      BILLING_DOCUMENTS: 'true',
      BILLING_SUBMIT_BACKOFF_MS: '100',
      BILLING_FEED_POLL_MS: '0',
    }),
    collect: ['billing-case'],
    users: { admin: 'ROLE_ADMINISTRATOR', observer: 'ROLE_OBSERVER' },
    timeout: 120_000,
  });

  const models = () => billingModels(sys.ctx.mongo);
  const get = (id: string) =>
    models().BillingCase.findById(id).lean<BillingCaseDoc>().exec() as Promise<BillingCaseDoc>;
  const history = (c: BillingCaseDoc) => c.caseHistory.map((e) => e.status);
  const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const store = async (b: Buffer) => (await sys.ctx.blobs.put(Readable.from([b]))).id;

  /** the lab's test order with a report file, and the requisition's TRF attachment (as their modules keep them) */
  async function withFiles(c: Partial<BillingCaseDoc>, files: { report?: Buffer; trf?: Buffer }) {
    const out: { reportId?: string; trfId?: string } = {};
    if (files.report) {
      out.reportId = await store(files.report);
      await sys.ctx.mongo.collection('test_orders').insertOne({
        _id: c.testOrderId as never,
        reports: [
          { version: 1, fileId: out.reportId, fileName: `Report ${c.testId}.pdf`, size: files.report.length },
        ],
      });
    }
    if (files.trf) out.trfId = await addTrf(c.testOrderFormId!, files.trf);
    return out;
  }
  async function addTrf(requisitionId: string, content: Buffer) {
    const blobId = await store(content);
    await sys.ctx.mongo.collection('attachments').insertOne({
      _id: randomUUID() as never,
      testOrderForm: { id: requisitionId },
      type: 'TRF',
      name: `TRF ${requisitionId}.pdf`,
      blobId,
      deleted: false,
      createdOn: new Date(),
    });
    return blobId;
  }

  /** a case with its files, submitted through the API; resolves once its documents' round ended in `status` */
  async function submitted(billingCode: string, files: { report?: Buffer; trf?: Buffer }, status: string) {
    n += 1;
    const c = qualifiedCase('docs', n, { billingCode });
    const ids = await withFiles(c, files);
    const doc = await models().BillingCase.create(c);
    const id = doc._id as string;
    const res = await sys.app.inject({
      method: 'POST',
      url: `/bis/api/v1/billing/submit/${id}`,
      headers: h.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { id, ...ids, done: await inStatus(id, status) };
  }
  const inStatus = (id: string, status: string) =>
    waitFor(async () => ((await get(id))?.caseStatus === status ? get(id) : null), {
      what: `case ${id} in ${status}`,
      timeoutMs: 20_000,
    });
  const uploadAgain = (id: string, headers = h.admin) =>
    sys.app.inject({ method: 'POST', url: `/bis/api/v1/billing/${id}/documents`, headers });
  /** a claim submitted and taken: the history before its documents' outcome */
  const TAKEN = ['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN'];
  const key = (id: string, kind: string, fileId: string) => `${id}:1:${kind}:${fileId}`;

  it('a claim taken: the report and the TRF uploaded once each, DOC_UPLOAD_SUCCEEDED with one event', async () => {
    const report = pdf('report one');
    const trf = pdf('trf one');
    const { id, reportId, trfId, done } = await submitted(
      'ACC-DOCS',
      { report, trf },
      'DOC_UPLOAD_SUCCEEDED',
    );
    expect(history(done)).toEqual([...TAKEN, 'DOC_UPLOAD_SUCCEEDED']);
    expect(done.errorDetails).toBeNull();
    expect(done.documents?.uploads.map((u) => [u.kind, u.key])).toEqual([
      ['REPORT', key(id, 'REPORT', reportId!)],
      ['TRF', key(id, 'TRF', trfId!)],
    ]);
    // what the billing system holds is what the blob store held
    const held = gateway.documents().filter((d) => d.claimKey === `${id}:1`);
    expect(held.map((d) => [d.kind, d.sha256, d.size]).sort()).toEqual(
      [
        ['REPORT', sha(report), report.length],
        ['TRF', sha(trf), trf.length],
      ].sort(),
    );
    expect(done.documents?.uploads.map((u) => u.documentId).sort()).toEqual(
      held.map((d) => d.documentId).sort(),
    );
    expect(gateway.documentPosts(key(id, 'REPORT', reportId!))).toBe(1);

    // one job for the round, done
    const queue = sys.ctx.queues.get(BILLING_DOCUMENTS_QUEUE)!;
    const job = await queue.getJob(documentsJobId({ caseId: id, generation: 1, round: 0 }));
    expect(await job?.getState()).toBe('completed');
    await settled(sys);
    await collector.drained();
    const events = eventsIn(collector.messages, id).map((e) => e.data.caseStatus);
    expect(events.filter((s) => s === 'DOC_UPLOAD_SUCCEEDED')).toHaveLength(1);
  });

  it('the TRF refused: DOC_UPLOAD_PARTIAL naming it; Upload documents again does not send the report twice', async () => {
    const { id, reportId, trfId, done } = await submitted(
      'DOCP-1',
      { report: pdf('report p'), trf: pdf('trf p') },
      'DOC_UPLOAD_PARTIAL',
    );
    expect(done.errorDetails).toBe('TRF: DOC-601: The TRF could not be indexed for this claim');
    expect(done.documents?.uploads.map((u) => u.kind)).toEqual(['REPORT']);

    // an observer may not ask; an administrator may
    expect((await uploadAgain(id, h.observer)).statusCode).toBe(403);
    const res = await uploadAgain(id);
    expect(res.statusCode, res.body).toBe(200);
    const trfKey = key(id, 'TRF', trfId!);
    await waitFor(
      async () => gateway.documentPosts(trfKey) === 2 && (await get(id)).caseHistory.length === 6,
      {
        what: 'the second round recorded',
      },
    );
    const again = await get(id);
    expect(again.caseStatus).toBe('DOC_UPLOAD_PARTIAL');
    expect(again.documents?.round).toBe(1);
    expect(again.caseHistory.at(-2)).toMatchObject({
      status: 'DOC_UPLOAD_PARTIAL',
      reason: 'Documents to be uploaded again',
    });
    expect(gateway.documentPosts(key(id, 'REPORT', reportId!))).toBe(1);
  });

  it('a TRF missing, then added: PARTIAL, and SUCCEEDED once uploaded again; another ask is refused', async () => {
    const { id, reportId, done } = await submitted(
      'ACC-LATE',
      { report: pdf('report l') },
      'DOC_UPLOAD_PARTIAL',
    );
    expect(done.errorDetails).toBe('TRF: the requisition has no TRF PDF');
    await addTrf(done.testOrderFormId!, pdf('trf late'));
    expect((await uploadAgain(id)).statusCode).toBe(200);
    const ok = await inStatus(id, 'DOC_UPLOAD_SUCCEEDED');
    expect(ok.errorDetails).toBeNull();
    expect(ok.documents?.uploads.map((u) => u.kind)).toEqual(['REPORT', 'TRF']);
    expect(gateway.documentPosts(key(id, 'REPORT', reportId!))).toBe(1);

    const refused = await uploadAgain(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'Documents can be uploaded again only after a partial or failed document upload',
    );
  });

  it('every document refused: DOC_UPLOAD_FAILED', async () => {
    const { done } = await submitted('DOCF-1', { report: pdf('r f'), trf: pdf('t f') }, 'DOC_UPLOAD_FAILED');
    expect(done.errorDetails?.split('\n')).toEqual([
      'REPORT: DOC-601: The report could not be indexed for this claim',
      'TRF: DOC-601: The TRF could not be indexed for this claim',
    ]);
    expect(done.documents?.uploads ?? []).toEqual([]);
  });

  it('the billing system busy: the round is retried, the case stays ACCEPTED until every document is taken', async () => {
    gateway.failDocuments(2);
    const { id, reportId, done } = await submitted(
      'ACC-BUSY',
      { report: pdf('r b'), trf: pdf('t b') },
      'DOC_UPLOAD_SUCCEEDED',
    );
    expect(history(done)).toEqual([...TAKEN, 'DOC_UPLOAD_SUCCEEDED']);
    expect(gateway.documentPosts(key(id, 'REPORT', reportId!))).toBe(2);
    expect(gateway.documents().filter((d) => d.claimKey === `${id}:1`)).toHaveLength(2);
  });

  it('a taken claim whose job is gone gets it back from the sweep', async () => {
    n += 1;
    const c = qualifiedCase('docs', n, { billingCode: 'ACC-SWEEP' });
    await withFiles(c, { report: pdf('r s'), trf: pdf('t s') });
    // a claim the billing system holds under `${id}:1`, the case ACCEPTED with no documents job (lost with Redis)
    const doc = await models().BillingCase.create({
      ...c,
      caseStatus: 'ACCEPTED_BY_XIFIN',
      submission: { generation: 1, attempts: 1 },
    });
    const id = doc._id as string;
    const claim = await fetch(`${gateway.url}/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `${id}:1` },
      body: JSON.stringify({ billingCode: 'ACC-SWEEP' }),
    });
    expect(claim.status).toBe(200);
    const billing = sys.modules.find((m: { name: string }) => m.name === 'billing') as BillingModule;
    expect(await billing.documents.requeue()).toBeGreaterThanOrEqual(1);
    await inStatus(id, 'DOC_UPLOAD_SUCCEEDED');
  });
});
