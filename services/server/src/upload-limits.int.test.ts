/**
 * Uploads over their limit are refused while they stream, and nothing is kept (issue 28, item 5): the report upload
 * (lab), the attachment upload (requisitions) with a requisition and in the Attachment Box (the sample manifest
 * upload), and the manifest dry run (lab). Each test streams a body three times the limit over real HTTP, chunked (no
 * Content-Length to refuse up front), from a client that goes on sending after the answer has arrived, as one that
 * does not listen while it sends: only the server can stop it, by closing the connection. The body is made while
 * it is sent (one 256 KB buffer, again and again), never held whole.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@onco/domain';
import { createLabModule, type LabModule } from '@onco/lab';
import { requisitionModels, type RequisitionModels } from '@onco/requisitions';
import {
  authOf,
  blobFiles,
  createTestSystem,
  createUser,
  partFiles,
  type Auth,
  type TestSystem,
} from '@onco/testing';

const MB = 1024 * 1024;
/** every one of these routes takes at most 50 MB (the spec's limit and text) */
const LIMIT = 50 * MB;
const TOTAL = 3 * LIMIT;

interface Streamed {
  status: number;
  body: string;
  /** bytes of the file the client had sent when the answer arrived, and when the connection closed */
  sentAtAnswer: number;
  sent: number;
  /** the connection closed within 10 s of the answer (else the client gave up) */
  closedByServer: boolean;
}

/**
 * POST `fields`, then a file part of `size` bytes (`prefix`, then 'a's), then the closing boundary, to `path`,
 * chunked. The client keeps sending after the answer; it resolves once the connection has closed (the server
 * closed it, or the whole body was sent), or 10 s after the answer if neither happened.
 */
function streamUpload(
  port: number,
  path: string,
  auth: Auth,
  fields: Record<string, string>,
  file: { name: string; prefix?: string },
  size = TOTAL,
): Promise<Streamed> {
  const boundary = `----onco-limit-${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${file.prefix ?? ''}`,
  );
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let sent = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Streamed>((resolve, reject) => {
    let answer: { status: number; body: string } | null = null;
    let sentAtAnswer = -1;
    let closed = false;
    let giveUp: NodeJS.Timeout | undefined;
    let response: http.IncomingMessage | null = null;
    const finish = (closedByServer: boolean) => {
      clearTimeout(giveUp);
      if (answer) resolve({ ...answer, sentAtAnswer, sent, closedByServer });
      else reject(new Error(`the connection closed without an answer after ${sent} bytes`));
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        // a kept-alive connection, as browsers and most clients use
        agent,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      },
      (res) => {
        response = res;
        sentAtAnswer = sent;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          answer = { status: res.statusCode ?? 0, body: text };
          if (closed) finish(true);
          else
            giveUp = setTimeout(() => {
              req.destroy();
              finish(false);
            }, 10_000);
        });
      },
    );
    // the server closing the connection while the client still sends: EPIPE or ECONNRESET, expected
    req.on('error', () => undefined);
    req.on('close', () => {
      closed = true;
      if (answer) finish(sent < size);
      // an answer still being read: its `end` finishes (or its `close`, cut short); none at all: no answer
      else if (response && !response.destroyed) response.once('close', () => !answer && finish(false));
      else finish(false);
    });
    const body = new Readable({
      read() {
        if (sent === 0) this.push(head);
        if (sent >= size) {
          this.push(Buffer.from(`\r\n--${boundary}--\r\n`));
          this.push(null);
          return;
        }
        sent += chunk.length;
        this.push(chunk);
      },
    });
    body.on('error', reject);
    body.pipe(req);
  }).finally(() => agent.destroy());
}

describe('uploads over their limit: refused while streaming, nothing stored (real HTTP, the store, the file store)', () => {
  let sys: TestSystem;
  let port = 0;
  let lab: LabModule;
  let req: RequisitionModels;
  let admin: Auth;
  let provider: Auth;
  const run = randomBytes(3).toString('hex');
  const ACC = { id: `acc-lim-${run}`, name: 'Limit Oncology' };
  const trf = `trf-lim-${run}`;
  const testOrder = `to-lim-${run}`;

  beforeAll(async () => {
    sys = await createTestSystem();
    lab = createLabModule(sys.ctx);
    req = requisitionModels(sys.ctx.mongo);
    const [a, p] = await Promise.all([
      createUser(sys, 'ROLE_ADMINISTRATOR'),
      createUser(sys, 'ROLE_NPI', { account: ACC }),
    ]);
    [admin, provider] = await Promise.all([authOf(sys, a), authOf(sys, p)]);
    await req.Requisition.create({
      _id: trf,
      status: 'DRAFT',
      account: ACC,
      physician: { id: 'phy-lim', name: 'Dr Limit' },
      patient: { id: 'pat-lim', firstName: 'Lim', lastName: 'It' },
    });
    await lab.models.TestOrder.create({
      _id: testOrder,
      testOrderId: 'T-LIM1',
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      status: 'IN_PROGRESS',
      testHistories: [{ status: 'IN_PROGRESS', createdOn: new Date(), updatedOn: new Date() }],
      testOrderForm: {
        id: trf,
        testRequisitionId: 'TRF-LIM1',
        account: ACC,
        physician: { id: 'phy-lim', name: 'Dr Limit' },
        patient: { id: 'pat-lim', name: 'Lim It', userId: 'PAT-LIM' },
      },
    });
    await sys.app.listen({ port: 0, host: '127.0.0.1' });
    port = (sys.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sys?.close();
  });

  /** What is kept: the file store's blobs and partial writes, and the documents an upload would make. */
  const kept = async () => ({
    blobs: await blobFiles(sys.config.FILE_STORE_DIR),
    partial: await partFiles(sys.config.FILE_STORE_DIR),
    attachments: await req.Attachment.countDocuments({}).exec(),
    onRequisition: (await req.Requisition.findById(trf).lean().exec())!.attachments?.length ?? 0,
    pendingReports: await lab.models.PendingReport.countDocuments({}).exec(),
    testOrder: await lab.models.TestOrder.findById(testOrder, { status: 1, reports: 1 }).lean().exec(),
    manifests: await sys.ctx.mongo.collection('sample_manifests').countDocuments({}),
  });

  /** 413 with the spec's text, the connection closed by the server well before the end, and nothing kept */
  async function expectRefusedWhileStreaming(res: Streamed, before: Awaited<ReturnType<typeof kept>>) {
    console.info(
      `[over the limit] answered ${res.status} at ${(res.sentAtAnswer / MB).toFixed(1)} MB sent; ` +
        `${(res.sent / MB).toFixed(1)} of ${TOTAL / MB} MB sent when the server closed the connection`,
    );
    expect(res.status, res.body).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, message: MSG.attachmentTooLarge });
    // the answer came once the limit was passed, not at the end of the body
    expect(res.sentAtAnswer).toBeGreaterThan(LIMIT);
    expect(res.sentAtAnswer).toBeLessThan(LIMIT + 16 * MB);
    // and the server read no more: it closed the connection (the client would have sent it all)
    expect(res.closedByServer).toBe(true);
    expect(res.sent).toBeLessThan(LIMIT + 32 * MB);
    expect(await kept()).toEqual(before);
  }

  it('report upload (POST /oms/api/v1/testOrders/{id}/reports/upload)', async () => {
    const before = await kept();
    const res = await streamUpload(
      port,
      `/oms/api/v1/testOrders/${testOrder}/reports/upload?submit=true`,
      admin,
      { isAmendedReport: 'false' },
      { name: 'report.pdf', prefix: '%PDF-1.7\n' },
    );
    await expectRefusedWhileStreaming(res, before);
    expect(before.testOrder).toMatchObject({ status: 'IN_PROGRESS' });
  });

  it('attachment upload to a requisition (POST /portal/api/v1/attachments/upload)', async () => {
    const before = await kept();
    const res = await streamUpload(
      port,
      '/portal/api/v1/attachments/upload',
      provider,
      { type: 'NOTE', testOrderFormId: trf },
      { name: 'scan.pdf' },
    );
    await expectRefusedWhileStreaming(res, before);
  });

  it('sample manifest upload to the Attachment Box (POST /portal/api/v1/attachments/upload, SAMPLE_MANIFEST)', async () => {
    const before = await kept();
    const res = await streamUpload(
      port,
      '/portal/api/v1/attachments/upload',
      admin,
      { type: 'SAMPLE_MANIFEST', accountId: ACC.id, accountName: ACC.name },
      { name: 'manifest.csv', prefix: 'TRF #,Sample Type\n' },
    );
    await expectRefusedWhileStreaming(res, before);
  });

  it('sample manifest dry run (POST /portal/api/v1/sampleManifests/check)', async () => {
    const before = await kept();
    const res = await streamUpload(
      port,
      '/portal/api/v1/sampleManifests/check',
      admin,
      {},
      { name: 'manifest.csv', prefix: 'TRF #,Sample Type\n' },
    );
    await expectRefusedWhileStreaming(res, before);
  });
});
