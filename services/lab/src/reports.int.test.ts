import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createUser,
  eventsIn,
  kafkaTestSystem,
  multipart as multipartBody,
  settled,
  sha256,
  signIn,
  storeFiles,
  waitFor,
  type Auth,
  type Collector,
  type KafkaTestSystem,
  type Part,
} from '@onco/testing';
import { MULTIPART_NO_BOUNDARY } from '@onco/platform';
import { createLabModule, type LabModule, type TestOrderDoc } from './index';
import {
  MSG_REPORT_FILE_TYPE,
  PENDING_REPORT_TTL_MS,
  REPORT_MAX_BYTES,
  sweepExpiredReportUploads,
} from './use-cases';

const BASE = '/oms/api/v1/testOrders';
const TOO_LARGE = 'The file selected exceeds the file size limit of 50MB. The file will not be attached.';

/** a small, valid-looking PDF with random content (each call different, so versions can be told apart) */
const pdf = (n = 20_000) =>
  Buffer.concat([
    Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
    randomBytes(n),
    Buffer.from('\n%%EOF\n'),
  ]);

/** a multipart/form-data body (what a browser's FormData sends), its file parts PDFs unless they say */
const multipart = (parts: Part[]) => multipartBody(parts, 'application/pdf');

describe('lab: test reports (upload, submit, download) on the real services', () => {
  let sys: KafkaTestSystem;
  let lab: LabModule;
  let collector: Collector;
  let port = 0;
  const h: Record<'admin' | 'admin2' | 'npiA' | 'npiB', Auth> = {} as never;
  const run = randomBytes(3).toString('hex');

  const testOrder = async (n: number, over: Record<string, unknown> = {}): Promise<string> => {
    const id = `rep-${run}-${n}`;
    await lab.models.TestOrder.create({
      _id: id,
      testOrderId: `T-R${n}`,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'IN_PROGRESS',
      testHistories: [{ status: 'IN_PROGRESS', createdOn: new Date(), updatedOn: new Date() }],
      testOrderForm: {
        id: `tof-${run}-${n}`,
        testRequisitionId: `TRF-R${n}`,
        account: { id: 'acc-A', name: 'Alpha Oncology' },
        physician: { id: 'phy-1', name: 'Dr. One' },
        patient: { id: `pat-${n}`, name: `Patient ${n}`, userId: `PAT-${n}` },
      },
      ...over,
    });
    return id;
  };
  const read = async (id: string) => (await lab.models.TestOrder.findById(id).lean<TestOrderDoc>().exec())!;

  const upload = (who: Auth, id: string, parts: Part[], query = '') => {
    const { payload, contentType } = multipart(parts);
    return sys.app.inject({
      method: 'POST',
      url: `${BASE}/${id}/reports/upload${query}`,
      headers: { ...who, 'content-type': contentType },
      payload,
    });
  };
  const file = (data: Buffer, filename = 'report.pdf'): Part => ({ name: 'file', filename, data });
  const submit = (who: Auth, id: string, filePath: string, flags = '') =>
    sys.app.inject({
      method: 'POST',
      url: `${BASE}/${id}/reports/submit?filePath=${encodeURIComponent(filePath)}${flags}`,
      headers: who,
    });
  const download = (who: Auth, id: string, version?: number) =>
    sys.app.inject({
      method: 'GET',
      url: `${BASE}/${id}/reports/download${version ? `?version=${version}` : ''}`,
      headers: who,
    });
  const eventsOf = (id: string) =>
    eventsIn(collector.messages)
      .map((e) => e.data)
      .filter((d) => d.testOrderId === id);

  beforeAll(async () => {
    sys = await kafkaTestSystem(
      { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
      { ensureTopics: true },
    );
    lab = createLabModule(sys.ctx);
    await Promise.all(Object.values(lab.models).map((m) => m.init()));
    collector = await sys.collect(['test-status']);
    const [admin, admin2, npiA, npiB] = await Promise.all([
      createUser(sys, 'ROLE_ADMINISTRATOR'),
      createUser(sys, 'ROLE_ADMINISTRATOR'),
      createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
      createUser(sys, 'ROLE_NPI', { account: { id: 'acc-B', name: 'Beta Clinic' } }),
    ]);
    Object.assign(h, await signIn(sys, { admin, admin2, npiA, npiB }));
    await sys.app.listen({ port: 0, host: '127.0.0.1' });
    port = (sys.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('upload stores a pending file without changing the test; submit sets REPORT_COMPLETE with history and event', async () => {
    const id = await testOrder(1);
    const bytes = pdf();
    const up = await upload(h.admin, id, [
      { name: 'isAmendedReport', value: 'false' },
      { name: 'isTnpReportComplete', value: 'false' },
      file(bytes, 'Report T-R1.pdf'),
    ]);
    expect(up.statusCode, up.body).toBe(200);
    const { filePath } = up.json();
    expect(filePath).toEqual(expect.any(String));
    // upload alone changes nothing on the test
    const before = await read(id);
    expect(before.status).toBe('IN_PROGRESS');
    expect(before.reports).toEqual([]);
    const pending = await lab.models.PendingReport.findById(filePath).lean().exec();
    expect(pending).toMatchObject({
      testOrderId: id,
      fileName: 'Report T-R1.pdf',
      size: bytes.length,
      submittedOn: null,
    });
    expect(pending!.sha256).toBe(sha256(bytes));
    // the uploader previews the pending file
    const preview = await sys.app.inject({
      method: 'GET',
      url: `${BASE}/reports/file?filePath=${filePath}`,
      headers: h.admin,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.rawPayload.equals(bytes)).toBe(true);

    const res = await submit(h.admin, id, filePath);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'REPORT_COMPLETE' });
    expect(res.json().reports[0]).not.toHaveProperty('fileId');
    const after = await read(id);
    expect(after.status).toBe('REPORT_COMPLETE');
    expect(after.reports).toHaveLength(1);
    expect(after.reports[0]).toMatchObject({
      version: 1,
      fileName: 'Report T-R1.pdf',
      amended: false,
      tnp: false,
    });
    expect(after.testHistories.at(-1)).toMatchObject({
      status: 'REPORT_COMPLETE',
      change: 'report',
      detail: 'Report T-R1.pdf',
      testResult: { id: after.reports[0].fileId, contentType: 'application/pdf' },
    });
    expect(after.testResult).toMatchObject({ id: after.reports[0].fileId });
    expect((await lab.models.PendingReport.findById(filePath).lean().exec())!.submittedOn).toBeInstanceOf(
      Date,
    );

    const dl = await download(h.admin, id);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toContain('inline; filename="Report T-R1.pdf"');
    expect(sha256(dl.rawPayload)).toBe(sha256(bytes));

    const [event] = await waitFor(
      () => {
        const mine = eventsOf(id).filter((e) => e.change === 'report');
        return mine.length ? mine : null;
      },
      { what: 'the test-status event of the report', timeoutMs: 45_000 },
    );
    expect(event).toMatchObject({
      testOrderId: id,
      previousStatus: 'IN_PROGRESS',
      status: 'REPORT_COMPLETE',
      change: 'report',
      report: { version: 1, fileName: 'Report T-R1.pdf', amended: false },
      accountId: 'acc-A',
    });

    // a filePath is submitted once
    const again = await submit(h.admin, id, filePath);
    expect(again.statusCode).toBe(409);
    expect((await read(id)).reports).toHaveLength(1);
  });

  it('an amendment adds version 2 (REPORT_AMENDED); version 1 stays downloadable byte-identical', async () => {
    const id = await testOrder(2);
    const v1 = pdf(30_000);
    const v2 = pdf(40_000);
    const p1 = (await upload(h.admin, id, [file(v1, 'v1.pdf')])).json().filePath;
    expect((await submit(h.admin, id, p1)).json().status).toBe('REPORT_COMPLETE');
    const p2 = (
      await upload(h.admin, id, [{ name: 'isAmendedReport', value: 'true' }, file(v2, 'v2.pdf')])
    ).json().filePath;
    const res = await submit(h.admin, id, p2); // the flag sent with the upload applies
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('REPORT_AMENDED');
    const doc = await read(id);
    expect(doc.reports.map((r) => [r.version, r.fileName, r.amended])).toEqual([
      [1, 'v1.pdf', false],
      [2, 'v2.pdf', true],
    ]);
    expect(doc.testHistories.filter((x) => x.change === 'report').map((x) => x.status)).toEqual([
      'REPORT_COMPLETE',
      'REPORT_AMENDED',
    ]);
    const latest = await download(h.admin, id);
    expect(latest.rawPayload.equals(v2)).toBe(true);
    const first = await download(h.admin, id, 1);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(v1)).toBe(true);
    expect((await download(h.admin, id, 2)).rawPayload.equals(v2)).toBe(true);
    expect((await download(h.admin, id, 3)).statusCode).toBe(404);
    const ev = await waitFor(
      () => eventsOf(id).find((e) => e.change === 'report' && e.report?.version === 2),
      { what: 'the amended report event', timeoutMs: 45_000 },
    );
    expect(ev).toMatchObject({
      status: 'REPORT_AMENDED',
      previousStatus: 'REPORT_COMPLETE',
      report: { amended: true },
    });
  });

  it('TNP: updateTestStatusWithReport sets TNP_REPORT_COMPLETE; ?submit=true uploads and submits in one call', async () => {
    const id = await testOrder(3);
    const p = (await upload(h.admin, id, [file(pdf(), 'tnp.pdf')])).json().filePath;
    const res = await sys.app.inject({
      method: 'POST',
      url: `${BASE}/updateTestStatusWithReport`,
      headers: h.admin,
      payload: { uuid: id, status: 'TNP_REPORT_COMPLETE', filePath: p },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('TNP_REPORT_COMPLETE');
    expect((await read(id)).reports[0]).toMatchObject({ version: 1, tnp: true, amended: false });
    // only TNP_REPORT_COMPLETE is accepted on that path
    const wrong = await sys.app.inject({
      method: 'POST',
      url: `${BASE}/updateTestStatusWithReport`,
      headers: h.admin,
      payload: { uuid: id, status: 'REPORT_COMPLETE', filePath: p },
    });
    expect(wrong.statusCode).toBe(400);

    const id2 = await testOrder(4);
    const one = await upload(
      h.admin,
      id2,
      [{ name: 'isTnpReportComplete', value: 'true' }, file(pdf())],
      '?submit=true',
    );
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({
      filePath: expect.any(String),
      testOrder: { id: id2, status: 'TNP_REPORT_COMPLETE' },
    });
    // submit's query flags win over the upload's
    const id3 = await testOrder(5);
    const p3 = (
      await upload(h.admin, id3, [{ name: 'isTnpReportComplete', value: 'true' }, file(pdf())])
    ).json().filePath;
    const r3 = await submit(h.admin, id3, p3, '&tnpReportCompleteFlag=false&amendedFlag=false');
    expect(r3.json().status).toBe('REPORT_COMPLETE');
  });

  it('a filePath is submitted only by its uploader and only to its test', async () => {
    const id = await testOrder(6);
    const other = await testOrder(7);
    const p = (await upload(h.admin, id, [file(pdf())])).json().filePath;
    expect((await submit(h.admin2, id, p)).statusCode).toBe(404);
    expect((await submit(h.admin, other, p)).statusCode).toBe(404);
    expect((await submit(h.admin, id, 'no-such-upload')).statusCode).toBe(404);
    const preview = await sys.app.inject({
      method: 'GET',
      url: `${BASE}/reports/file?filePath=${p}`,
      headers: h.admin2,
    });
    expect(preview.statusCode).toBe(404);
    expect((await read(id)).status).toBe('IN_PROGRESS');
    expect((await read(other)).status).toBe('IN_PROGRESS');
    expect((await submit(h.admin, id, p)).statusCode).toBe(200);
  });

  it('refuses non-PDF content named .pdf with the spec text, and stores nothing', async () => {
    const id = await testOrder(8);
    const filesBefore = await storeFiles(sys.config.FILE_STORE_DIR);
    const pendingBefore = await lab.models.PendingReport.countDocuments().exec();
    for (const data of [
      Buffer.from('PK\x03\x04 this is a zip, not a PDF'.repeat(5000)),
      Buffer.alloc(0),
      Buffer.from('%PD'),
    ]) {
      const res = await upload(h.admin, id, [file(data, 'fake.pdf')]);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(MSG_REPORT_FILE_TYPE);
    }
    // no file part at all
    expect((await upload(h.admin, id, [{ name: 'isAmendedReport', value: 'false' }])).statusCode).toBe(400);
    // a multipart body without its boundary (was a 500)
    const noBoundary = await sys.app.inject({
      method: 'POST',
      url: `${BASE}/${id}/reports/upload`,
      headers: { ...h.admin, 'content-type': 'multipart/form-data' },
      payload: '%PDF-1.4',
    });
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    expect(noBoundary.json().message).toBe(MULTIPART_NO_BOUNDARY);
    expect(await storeFiles(sys.config.FILE_STORE_DIR)).toEqual(filesBefore);
    expect(await lab.models.PendingReport.countDocuments().exec()).toBe(pendingBefore);
    expect((await read(id)).status).toBe('IN_PROGRESS');
  });

  it('refuses a cancelled test (and one not started) before storing a byte', async () => {
    const cancelled = await testOrder(9, { status: 'CANCELLED' });
    const ordered = await testOrder(10, { status: 'TEST_ORDERED' });
    const filesBefore = await storeFiles(sys.config.FILE_STORE_DIR);
    const c = await upload(h.admin, cancelled, [file(pdf())]);
    expect(c.statusCode).toBe(409);
    expect(c.json().message).toBe('A report cannot be uploaded for a cancelled test.');
    expect((await upload(h.admin, ordered, [file(pdf())])).statusCode).toBe(409);
    expect(await storeFiles(sys.config.FILE_STORE_DIR)).toEqual(filesBefore);
    // cancelled between upload and submit: the submit is refused and nothing changes
    const id = await testOrder(11);
    const p = (await upload(h.admin, id, [file(pdf())])).json().filePath;
    await lab.models.TestOrder.updateOne({ _id: id }, { $set: { status: 'CANCELLED' } }).exec();
    const s = await submit(h.admin, id, p);
    expect(s.statusCode).toBe(409);
    expect((await read(id)).reports).toEqual([]);
  });

  it('scopes downloads and permissions: providers in scope download but cannot upload; others get 404', async () => {
    const id = await testOrder(12);
    const bytes = pdf();
    const p = (await upload(h.admin, id, [file(bytes)])).json().filePath;
    expect((await submit(h.admin, id, p)).statusCode).toBe(200);
    const mine = await download(h.npiA, id);
    expect(mine.statusCode).toBe(200);
    expect(mine.rawPayload.equals(bytes)).toBe(true);
    expect((await download(h.npiB, id)).statusCode).toBe(404);
    expect((await upload(h.npiA, id, [file(pdf())])).statusCode).toBe(403);
    expect((await submit(h.npiA, id, p)).statusCode).toBe(403);
    expect((await sys.app.inject({ method: 'GET', url: `${BASE}/${id}/reports/download` })).statusCode).toBe(
      401,
    );
    // a test without a report
    const none = await testOrder(13);
    const r = await download(h.admin, none);
    expect(r.statusCode).toBe(404);
    expect(r.json().message).toBe('No PDF File Available.');
  });

  /** POST a generated multipart upload over real HTTP (chunked: no Content-Length), `size` bytes of PDF */
  function streamUpload(id: string, size: number, opts: { abortAfter?: number; magic?: string } = {}) {
    const boundary = '----onco-report-stream';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="isAmendedReport"\r\n\r\nfalse\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n${opts.magic ?? '%PDF-1.7\n'}`,
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20); // one buffer sent again and again: the client holds 256 KB
    let sent = 0;
    return new Promise<{ status: number; body: string; sent: number; aborted: boolean }>(
      (resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: `${BASE}/${id}/reports/upload`,
            headers: { ...h.admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
          (r) => {
            let text = '';
            r.setEncoding('utf8');
            r.on('data', (c) => (text += c));
            r.on('end', () => {
              resolve({ status: r.statusCode ?? 0, body: text, sent, aborted: false });
              // answered before the whole body was sent (a refusal at the first bytes): stop sending, as a
              // browser does (node's client would otherwise wait for a drain that never comes)
              if (!req.writableFinished) req.destroy();
            });
          },
        );
        req.on('error', (err) =>
          opts.abortAfter ? resolve({ status: 0, body: '', sent, aborted: true }) : reject(err),
        );
        const body = new Readable({
          read() {
            if (sent === 0) this.push(head);
            if (opts.abortAfter && sent >= opts.abortAfter) {
              // the client goes away mid-stream
              setTimeout(() => req.destroy(new Error('client aborted')), 200);
              return;
            }
            if (sent >= size) {
              this.push(Buffer.from(`\r\n--${boundary}--\r\n`));
              this.push(null);
              return;
            }
            sent += chunk.length;
            this.push(chunk);
          },
        });
        body.pipe(req);
      },
    );
  }

  /** whether a temporary (`.part`) file shows up in the store while `during` runs */
  async function watchPartial<T>(during: () => Promise<T>): Promise<[T, boolean]> {
    let seen = false;
    const poll = setInterval(() => {
      void storeFiles(sys.config.FILE_STORE_DIR).then((f) => {
        if (f.some((x) => x.endsWith('.part'))) seen = true;
      });
    }, 50);
    try {
      return [await during(), seen];
    } finally {
      clearInterval(poll);
    }
  }

  it('cuts off an upload over 50MB while streaming: 413, nothing stored, no status change', async () => {
    const id = await testOrder(14);
    const filesBefore = await storeFiles(sys.config.FILE_STORE_DIR);
    const pendingBefore = await lab.models.PendingReport.countDocuments().exec();
    const [res, streamed] = await watchPartial(() => streamUpload(id, 51 * 1024 * 1024));
    // the bytes went to the store's temporary file as they arrived
    expect(streamed).toBe(true);
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, message: TOO_LARGE });
    expect(res.sent).toBeGreaterThan(REPORT_MAX_BYTES);
    expect(await storeFiles(sys.config.FILE_STORE_DIR)).toEqual(filesBefore);
    expect(await lab.models.PendingReport.countDocuments().exec()).toBe(pendingBefore);
    const doc = await read(id);
    expect(doc.status).toBe('IN_PROGRESS');
    expect(doc.reports).toEqual([]);
  });

  it('refuses a large non-PDF over real HTTP at its first bytes; the client gets the 400 and nothing is kept', async () => {
    const id = await testOrder(17);
    const filesBefore = await storeFiles(sys.config.FILE_STORE_DIR);
    const res = await streamUpload(id, 8 * 1024 * 1024, { magic: 'GIF89a' });
    expect(res.status, res.body).toBe(400);
    expect(JSON.parse(res.body).message).toBe(MSG_REPORT_FILE_TYPE);
    expect(await storeFiles(sys.config.FILE_STORE_DIR)).toEqual(filesBefore);
    expect((await read(id)).status).toBe('IN_PROGRESS');
  });

  it('an upload the client aborts mid-stream leaves no blob, no partial file and no pending record', async () => {
    const id = await testOrder(15);
    const filesBefore = await storeFiles(sys.config.FILE_STORE_DIR);
    const pendingBefore = await lab.models.PendingReport.countDocuments().exec();
    // the bytes do reach the store's temporary file before the client goes away
    const [res, sawPartial] = await watchPartial(() =>
      streamUpload(id, 30 * 1024 * 1024, { abortAfter: 8 * 1024 * 1024 }),
    );
    expect(res.aborted).toBe(true);
    expect(sawPartial).toBe(true);
    // the server notices the closed socket and removes its temporary file
    await waitFor(
      async () => JSON.stringify(await storeFiles(sys.config.FILE_STORE_DIR)) === JSON.stringify(filesBefore),
      { what: 'the partial upload removed', timeoutMs: 10_000 },
    );
    await settled(sys);
    expect(await storeFiles(sys.config.FILE_STORE_DIR)).toEqual(filesBefore);
    expect(await lab.models.PendingReport.countDocuments().exec()).toBe(pendingBefore);
    expect((await read(id)).status).toBe('IN_PROGRESS');
    // the server still answers
    const ok = await upload(h.admin, id, [file(pdf())]);
    expect(ok.statusCode).toBe(200);
  });

  it('sweeps expired uploads that were never submitted, with their blob, and keeps submitted files', async () => {
    const id = await testOrder(16);
    const open = (await upload(h.admin, id, [file(pdf())])).json().filePath;
    const done = (await upload(h.admin, id, [file(pdf())])).json().filePath;
    expect((await submit(h.admin, id, done)).statusCode).toBe(200);
    const blobOf = async (p: string) => (await lab.models.PendingReport.findById(p).lean().exec())!.blobId;
    const [openBlob, doneBlob] = [await blobOf(open), await blobOf(done)];
    const past = new Date(Date.now() - 2 * PENDING_REPORT_TTL_MS);
    await lab.models.PendingReport.updateMany(
      { _id: { $in: [open, done] } },
      { $set: { expiresOn: past } },
    ).exec();
    // an expired upload can no longer be submitted
    expect((await submit(h.admin, id, open)).statusCode).toBe(404);
    expect(await sweepExpiredReportUploads(lab, sys.ctx.blobs)).toBeGreaterThanOrEqual(2);
    expect(await lab.models.PendingReport.countDocuments({ _id: { $in: [open, done] } }).exec()).toBe(0);
    const files = await storeFiles(sys.config.FILE_STORE_DIR);
    expect(files).not.toContain(openBlob);
    expect(files).toContain(doneBlob);
    expect((await download(h.admin, id)).statusCode).toBe(200);
  });

  it('an upload sweeps expired uploads beside its answer', async () => {
    const id = await testOrder(31);
    const stale = (await upload(h.admin, id, [file(pdf())])).json().filePath;
    const staleBlob = (await lab.models.PendingReport.findById(stale).lean().exec())!.blobId;
    await lab.models.PendingReport.updateOne(
      { _id: stale },
      { $set: { expiresOn: new Date(Date.now() - 2 * PENDING_REPORT_TTL_MS) } },
    ).exec();
    expect((await upload(h.admin, id, [file(pdf())])).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        expect(await lab.models.PendingReport.exists({ _id: stale }).exec()).toBeNull();
        expect(await storeFiles(sys.config.FILE_STORE_DIR)).not.toContain(staleBlob);
      },
      { timeout: 10_000, interval: 100 },
    );
  });

  it('documents its routes in the OpenAPI document', async () => {
    const doc = (await sys.app.inject({ url: '/docs/json' })).json();
    expect(doc.paths['/oms/api/v1/testOrders/{id}/reports/upload'].post.responses).toHaveProperty('413');
    expect(doc.paths).toHaveProperty(['/oms/api/v1/testOrders/{id}/reports/submit']);
    expect(doc.paths).toHaveProperty(['/oms/api/v1/testOrders/{id}/reports/download']);
    expect(doc.paths).toHaveProperty(['/oms/api/v1/testOrders/updateTestStatusWithReport']);
  });
});
