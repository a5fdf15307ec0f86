import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authOf,
  auditEntriesSince,
  blobFiles,
  createUser,
  multipart,
  partFiles,
  sha256,
  sharedTestSystem,
  type Auth,
  type Part,
  type TestSystem,
} from '@onco/testing';
import { MULTIPART_BAD_BOUNDARY, MULTIPART_MALFORMED, MULTIPART_NO_BOUNDARY } from '@onco/platform';
import { requisitionModels, type RequisitionModels } from '../models';
import { ATTACHMENT_MAX_BYTES, MSG_BOX_FILE_TYPE } from './shape';

const TOO_LARGE = 'The file selected exceeds the file size limit of 50MB. The file will not be attached.';
const BASE = '/portal/api/v1/attachments';

/** bytes in the store's temporary (.part) files */
async function partBytes(dir: string): Promise<number> {
  let n = 0;
  for (const shard of await readdir(dir).catch(() => [] as string[]))
    for (const f of await readdir(path.join(dir, shard)).catch(() => [] as string[]))
      if (f.endsWith('.part')) n += (await stat(path.join(dir, shard, f)).catch(() => ({ size: 0 }))).size;
  return n;
}

describe('attachments API (real store, Redis, file store)', () => {
  let sys: TestSystem;
  let models: RequisitionModels;
  let authA: Auth;
  let authB: Auth;
  let authObserverA: Auth;
  const trfA = `trf-a-${randomBytes(3).toString('hex')}`;
  const trfB = `trf-b-${randomBytes(3).toString('hex')}`;
  const ACC_A = { id: 'acc-att-a', name: 'Attachment Clinic A' };
  const ACC_B = { id: 'acc-att-b', name: 'Attachment Clinic B' };

  async function upload(auth: Auth, parts: Part[]) {
    const { payload, contentType } = multipart(parts);
    return sys.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: { ...auth, 'content-type': contentType },
      payload,
    });
  }

  beforeAll(async () => {
    sys = await sharedTestSystem();
    models = requisitionModels(sys.ctx.mongo);
    const [a, b, obs] = await Promise.all([
      createUser(sys, 'ROLE_NPI', { account: ACC_A }),
      createUser(sys, 'ROLE_NPI', { account: ACC_B }),
      createUser(sys, 'ROLE_OBSERVER', { account: ACC_A }),
    ]);
    authA = await authOf(sys, a);
    authB = await authOf(sys, b);
    authObserverA = await authOf(sys, obs);
    await models.Requisition.create([
      {
        _id: trfA,
        status: 'DRAFT',
        account: ACC_A,
        physician: { id: 'phys-att-a', name: 'Dr A' },
        patient: { id: 'pat-a', firstName: 'Ada', lastName: 'Lovelace' },
      },
      {
        _id: trfB,
        status: 'DRAFT',
        account: ACC_B,
        physician: { id: 'phys-att-b', name: 'Dr B' },
        patient: { id: 'pat-b', firstName: 'Bob', lastName: 'Builder' },
      },
    ]);
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('uploads to a requisition, downloads the same bytes with its name, and soft-deletes', async () => {
    const data = randomBytes(300_000);
    const res = await upload(authA, [
      { name: 'type', value: 'RECENT_PATHOLOGY_REPORT' },
      { name: 'account.id', value: ACC_A.id },
      { name: 'testOrderForm.id', value: trfA },
      { name: 'file', filename: 'path report ü.pdf', contentType: 'application/pdf', data },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const att = res.json();
    expect(att).toMatchObject({
      name: 'path report ü.pdf',
      type: 'RECENT_PATHOLOGY_REPORT',
      status: 'UPLOADED',
      size: data.length,
      sha256: sha256(data),
      contentType: 'application/pdf',
      account: ACC_A,
      testOrderForm: { id: trfA },
      deleted: false,
    });
    expect(att.blobId).toBeUndefined();

    // the requisition keeps its list
    let trf = await models.Requisition.findById(trfA).lean().exec();
    expect(trf!.attachments).toEqual([
      expect.objectContaining({
        id: att.id,
        name: 'path report ü.pdf',
        type: 'RECENT_PATHOLOGY_REPORT',
        size: data.length,
      }),
    ]);
    // stored durably: one complete blob with the same checksum
    const stored = await models.Attachment.findById(att.id).lean().exec();
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toContain(stored!.blobId);

    const dl = await sys.app.inject({ method: 'GET', url: `${BASE}/${att.id}/download`, headers: authA });
    expect(dl.statusCode).toBe(200);
    expect(sha256(dl.rawPayload)).toBe(sha256(data));
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="path report _.pdf"; filename*=UTF-8''path%20report%20%C3%BC.pdf`,
    );

    // the Document Uploads list (spec dialect) and its facets
    const list = await sys.app.inject({
      method: 'GET',
      url: `${BASE}?filter=${encodeURIComponent(JSON.stringify({ type: 'in(RECENT_PATHOLOGY_REPORT)', accountName: `in(${ACC_A.name})` }))}&page=0&perPage=10`,
      headers: authA,
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().content.map((a: any) => a.id)).toContain(att.id);
    const facets = await sys.app.inject({ method: 'GET', url: `${BASE}/facets`, headers: authA });
    expect(facets.statusCode).toBe(200);
    const typeFacet = facets.json().content.find((f: any) => f.name === 'attachment_type_facet');
    expect(typeFacet.items).toContainEqual({ value: 'RECENT_PATHOLOGY_REPORT', count: 1 });

    const bad = await sys.app.inject({
      method: 'PUT',
      url: `${BASE}/${att.id}`,
      headers: authA,
      payload: { deleted: false },
    });
    expect(bad.statusCode).toBe(400);

    const del = await sys.app.inject({
      method: 'PUT',
      url: `${BASE}/${att.id}`,
      headers: authA,
      payload: { ...att, deleted: true },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toMatchObject({ id: att.id, deleted: true });
    trf = await models.Requisition.findById(trfA).lean().exec();
    expect(trf!.attachments.map((a) => a.id)).not.toContain(att.id);
    // the record is kept, marked deleted; it is no longer readable nor listed
    expect(await models.Attachment.findById(att.id).lean().exec()).toMatchObject({ deleted: true });
    expect(
      (await sys.app.inject({ method: 'GET', url: `${BASE}/${att.id}/download`, headers: authA })).statusCode,
    ).toBe(404);
    const after = await sys.app.inject({ method: 'GET', url: `${BASE}?perPage=100`, headers: authA });
    expect(after.json().content.map((a: any) => a.id)).not.toContain(att.id);
  });

  it('accepts the attachment as one JSON part, in any order relative to the file', async () => {
    const data = Buffer.from('clinical note text');
    const res = await upload(authA, [
      { name: 'file', filename: 'note.txt', contentType: 'text/plain', data },
      {
        name: 'attachment',
        filename: 'blob',
        contentType: 'application/json',
        data: Buffer.from(
          JSON.stringify({ type: 'NOTE', account: { id: ACC_A.id }, testOrderForm: { id: trfA } }),
        ),
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'NOTE', testOrderForm: { id: trfA }, sha256: sha256(data) });
  });

  it('keeps every upload when several land on one requisition at once (one conditional $push each)', async () => {
    const before = (await models.Requisition.findById(trfA).lean().exec())!.attachments.length;
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        upload(authA, [
          { name: 'type', value: 'OTHER' },
          { name: 'testOrderFormId', value: trfA },
          { name: 'file', filename: `other-${i}.pdf`, data: randomBytes(1000) },
        ]),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const trf = await models.Requisition.findById(trfA).lean().exec();
    expect(trf!.attachments).toHaveLength(before + 5);
    for (const r of results) expect(trf!.attachments.map((a) => a.id)).toContain(r.json().id);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);
    const countBefore = await models.Attachment.countDocuments({}).exec();
    const file = { name: 'file', filename: 'x.pdf', data: Buffer.from('%PDF-1.4') };
    const cases: Array<[Part[], number, RegExp | string]> = [
      [
        [{ name: 'type', value: 'TRF' }, { name: 'testOrderFormId', value: trfA }, file],
        400,
        /generated by the system/,
      ],
      [
        [{ name: 'type', value: 'BOGUS' }, { name: 'testOrderFormId', value: trfA }, file],
        400,
        'Invalid attachment type: BOGUS',
      ],
      [[{ name: 'testOrderFormId', value: trfA }, file], 400, 'The attachment type is required'],
      [
        [
          { name: 'type', value: 'NOTE' },
          { name: 'testOrderFormId', value: trfA },
        ],
        400,
        'A file is required',
      ],
      [
        [
          { name: 'type', value: 'NOTE' },
          { name: 'testOrderFormId', value: trfA },
          { ...file, data: Buffer.alloc(0) },
        ],
        400,
        'The file is empty',
      ],
      [
        [
          { name: 'type', value: 'NOTE' },
          { name: 'testOrderFormId', value: trfA },
          { name: 'accountId', value: ACC_B.id },
          file,
        ],
        400,
        "The account does not match the requisition's account",
      ],
      // the Attachment Box (no requisition): its file types, one's own accounts
      [
        [
          { name: 'type', value: 'SAMPLE_MANIFEST' },
          { name: 'accountId', value: ACC_A.id },
          { ...file, filename: 'run.exe' },
        ],
        400,
        MSG_BOX_FILE_TYPE,
      ],
      [[{ name: 'type', value: 'SAMPLE_MANIFEST' }, file], 400, 'The account id is required'],
      [
        [{ name: 'type', value: 'SAMPLE_MANIFEST' }, { name: 'accountId', value: ACC_B.id }, file],
        404,
        'Account not found',
      ],
    ];
    for (const [parts, status, message] of cases) {
      const res = await upload(authA, parts);
      expect(res.statusCode, res.body).toBe(status);
      if (typeof message === 'string') expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(message);
    }
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);
    expect(await models.Attachment.countDocuments({}).exec()).toBe(countBefore);
  });

  it('lets a Box user upload to their account without a requisition', async () => {
    const res = await upload(authA, [
      { name: 'type', value: 'SAMPLE_MANIFEST' },
      { name: 'accountId', value: ACC_A.id },
      { name: 'accountName', value: ACC_A.name },
      { name: 'file', filename: 'manifest.csv', contentType: 'text/csv', data: Buffer.from('a,b\n1,2\n') },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: 'SAMPLE_MANIFEST', account: ACC_A, testOrderForm: null });
    // the Box's list: each page served is an audit read, its rows counted (an upload names no patient)
    const since = new Date();
    const page = await sys.app.inject({
      method: 'GET',
      url: '/portal/api/v1/attachments?size=5',
      headers: authA,
    });
    expect(page.statusCode, page.body).toBe(200);
    const reads = await auditEntriesSince(sys.ctx.mongo, since);
    expect(reads.map((e) => [e.what.type, e.action, e.count, e.what.patientIds])).toEqual([
      ['attachment', 'read', page.json().content.length, []],
    ]);
  });

  it('keeps other accounts out: no upload to, read, download or delete of what they cannot see', async () => {
    const mine = await upload(authA, [
      { name: 'type', value: 'INSURANCE' },
      { name: 'testOrderFormId', value: trfA },
      { name: 'file', filename: 'card.pdf', data: randomBytes(2000) },
    ]);
    expect(mine.statusCode).toBe(201);
    const id = mine.json().id;
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);

    // user B cannot upload to A's requisition (it does not exist for them)
    const up = await upload(authB, [
      { name: 'type', value: 'NOTE' },
      { name: 'testOrderFormId', value: trfA },
      { name: 'file', filename: 'sneaky.pdf', data: randomBytes(2000) },
    ]);
    expect(up.statusCode).toBe(404);
    expect(up.json().message).toBe('Requisition not found');
    // ... even when the fields come after the file
    const up2 = await upload(authB, [
      { name: 'file', filename: 'sneaky.pdf', data: randomBytes(2000) },
      { name: 'type', value: 'NOTE' },
      { name: 'testOrderFormId', value: trfA },
    ]);
    expect(up2.statusCode).toBe(404);
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);

    const dl = await sys.app.inject({ method: 'GET', url: `${BASE}/${id}/download`, headers: authB });
    expect(dl.statusCode).toBe(404);
    const del = await sys.app.inject({
      method: 'PUT',
      url: `${BASE}/${id}`,
      headers: authB,
      payload: { deleted: true },
    });
    expect(del.statusCode).toBe(404);
    const list = await sys.app.inject({ method: 'GET', url: `${BASE}?perPage=100`, headers: authB });
    expect(list.json().content.map((a: any) => a.id)).not.toContain(id);
    expect(await models.Attachment.findById(id).lean().exec()).toMatchObject({ deleted: false });

    // B can use their own requisition
    const own = await upload(authB, [
      { name: 'type', value: 'NOTE' },
      { name: 'testOrderFormId', value: trfB },
      { name: 'file', filename: 'mine.pdf', data: randomBytes(100) },
    ]);
    expect(own.statusCode).toBe(201);
    // an observer of account A may see but not attach to A's requisition
    const obs = await upload(authObserverA, [
      { name: 'type', value: 'NOTE' },
      { name: 'testOrderFormId', value: trfA },
      { name: 'file', filename: 'obs.pdf', data: randomBytes(100) },
    ]);
    expect(obs.statusCode).toBe(403);
    const obsDl = await sys.app.inject({
      method: 'GET',
      url: `${BASE}/${id}/download`,
      headers: authObserverA,
    });
    expect(obsDl.statusCode).toBe(200);
    expect((await sys.app.inject({ method: 'GET', url: `${BASE}/${id}/download` })).statusCode).toBe(401);
  });

  it('cuts off an upload over 50MB while streaming: 413 with the spec text, nothing stored, memory flat', async () => {
    await sys.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = sys.app.server.address() as AddressInfo;
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);
    const countBefore = await models.Attachment.countDocuments({}).exec();
    const trfBefore = (await models.Requisition.findById(trfA).lean().exec())!.attachments.length;

    const boundary = '----onco-big-upload';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nNOTE\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="testOrderFormId"\r\n\r\n${trfA}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 0x61); // one buffer, sent again and again: the client holds 256 KB
    const total = 60 * 1024 * 1024;
    const checkpoint = 40 * 1024 * 1024;
    let sent = 0;
    let onDiskAtCheckpoint = -1;
    const body = new Readable({
      read() {
        if (sent === 0) this.push(head);
        if (onDiskAtCheckpoint < 0 && sent >= checkpoint) {
          // pause at 40 MB sent: the bytes must already be on disk (in the store's temporary file), not in memory
          onDiskAtCheckpoint = 0;
          setTimeout(() => {
            void partBytes(sys.config.FILE_STORE_DIR).then((n) => {
              onDiskAtCheckpoint = n;
              sent += chunk.length;
              this.push(chunk);
            });
          }, 500);
          return;
        }
        if (sent >= total) {
          this.push(Buffer.from(`\r\n--${boundary}--\r\n`));
          this.push(null);
          return;
        }
        sent += chunk.length;
        this.push(chunk);
      },
    });

    const base = process.memoryUsage();
    const peak = { rss: base.rss, heap: base.heapUsed };
    const sample = () => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heap = Math.max(peak.heap, m.heapUsed);
    };
    const sampler = setInterval(sample, 10);

    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `${BASE}/upload`,
          // no Content-Length: chunked, so only the streaming limit can stop it
          headers: { ...authA, 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        (r) => {
          answered = true;
          let text = '';
          r.setEncoding('utf8');
          r.on('data', (c) => (text += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
        },
      );
      // once it has answered, the server closes the connection on the rest of the body (EPIPE here)
      let answered = false;
      req.on('error', (err) => !answered && reject(err));
      body.pipe(req);
    });
    clearInterval(sampler);
    sample();
    const mb = (n: number) => n / 1024 / 1024;
    const grew = { rss: mb(peak.rss - base.rss), heap: mb(peak.heap - base.heapUsed) };
    console.info(
      `[upload 60MB] sent ${mb(sent).toFixed(0)} MB; on disk at 40 MB sent: ${mb(onDiskAtCheckpoint).toFixed(1)} MB; ` +
        `peak growth: RSS +${grew.rss.toFixed(1)} MB, heap +${grew.heap.toFixed(1)} MB`,
    );
    // streamed to disk as it arrived (a few socket buffers behind the client), never accumulated in memory
    expect(mb(onDiskAtCheckpoint)).toBeGreaterThan(30);
    expect(grew.heap).toBeLessThan(10);
    // RSS also counts socket-read buffers not yet garbage-collected; a buffering server would add 50 MB on top
    expect(grew.rss).toBeLessThan(50);

    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ status: 413, message: TOO_LARGE });
    // the server read past the limit only up to the cut-off, never more than the limit plus a chunk
    expect(sent).toBeGreaterThan(ATTACHMENT_MAX_BYTES);

    // nothing stored, nothing half-written
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);
    expect(await partFiles(sys.config.FILE_STORE_DIR)).toEqual([]);
    expect(await models.Attachment.countDocuments({}).exec()).toBe(countBefore);
    expect((await models.Requisition.findById(trfA).lean().exec())!.attachments).toHaveLength(trfBefore);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const doc = (await sys.app.inject({ url: '/docs/json' })).json();
    expect(doc.paths['/portal/api/v1/attachments/upload'].post.responses).toHaveProperty('413');
    expect(doc.paths).toHaveProperty(['/portal/api/v1/attachments/{id}/download']);
    expect(doc.paths).toHaveProperty(['/portal/api/v1/attachments/facets']);
    expect(doc.paths).toHaveProperty(['/portal/api/v1/testOrderForms/{id}/trf']);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const res = await sys.app.inject({
      method: 'POST',
      url: `${BASE}/upload`,
      headers: {
        ...authA,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(ATTACHMENT_MAX_BYTES + 2 * 1024 * 1024),
      },
      payload: '--x--\r\n',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(TOO_LARGE);
  });

  it('refuses a multipart body without its boundary: 400 naming it, nothing stored (was a 500)', async () => {
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);
    const countBefore = await models.Attachment.countDocuments({}).exec();
    for (const contentType of ['multipart/form-data', 'multipart/form-data; charset=utf-8']) {
      const res = await sys.app.inject({
        method: 'POST',
        url: `${BASE}/upload`,
        headers: { ...authA, 'content-type': contentType },
        payload: '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nNOTE\r\n--x--\r\n',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(MULTIPART_NO_BOUNDARY);
    }
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);
    expect(await models.Attachment.countDocuments({}).exec()).toBe(countBefore);
  });

  it('refuses a multipart body it cannot split or read with a 400 saying what to send, nothing stored (were 500s)', async () => {
    const blobsBefore = await blobFiles(sys.config.FILE_STORE_DIR);
    const countBefore = await models.Attachment.countDocuments({}).exec();
    const { payload, contentType } = multipart([
      { name: 'type', value: 'NOTE' },
      { name: 'testOrderFormId', value: trfA },
      { name: 'file', filename: 'note.pdf', data: Buffer.from('%PDF-1.4 a note') },
    ]);
    const cases: Array<[string, string | Buffer, string]> = [
      // a boundary longer than RFC 2046's 70 characters (over 256, the parser threw)
      [`multipart/form-data; boundary=${'b'.repeat(300)}`, payload, MULTIPART_BAD_BOUNDARY],
      // a body that never uses the boundary its Content-Type names
      ['multipart/form-data; boundary=not-the-one-used', payload, MULTIPART_MALFORMED],
      // a body cut off inside the file, before its closing boundary
      [contentType, payload.subarray(0, payload.length - 40), MULTIPART_MALFORMED],
    ];
    for (const [type, body, message] of cases) {
      const res = await sys.app.inject({
        method: 'POST',
        url: `${BASE}/upload`,
        headers: { ...authA, 'content-type': type },
        payload: body,
      });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message, details: { header: 'content-type' } });
    }
    expect(await blobFiles(sys.config.FILE_STORE_DIR)).toEqual(blobsBefore);
    expect(await partBytes(sys.config.FILE_STORE_DIR)).toBe(0);
    expect(await models.Attachment.countDocuments({}).exec()).toBe(countBefore);
  });
});
