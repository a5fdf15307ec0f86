import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import mongoose from 'mongoose';
import pino from 'pino';
import { Writable } from 'node:stream';
import { installErrorHandler } from './error-handler';
import { loggerOptions } from './logger';
import {
  MULTIPART_BAD_BOUNDARY,
  MULTIPART_MALFORMED,
  MULTIPART_NO_BOUNDARY,
  multipartBoundaryProblem,
  refuseUnsplittableMultipart,
} from './multipart';

/**
 * The error handler's mappings of what a library throws for bad input (fuzzing found each as a 500): a multipart
 * body its parser cannot read, and a document the model refuses (a date it cannot hold). A bare app with the
 * platform's handler and multipart hook, as createBaseApp installs them, and one upload route that reads its parts.
 */
describe('bad input a library refuses is a 400, not a 500', () => {
  let app: FastifyInstance;
  const Window = mongoose.model(
    'ErrorHandlerTestWindow',
    new mongoose.Schema({ endTime: { type: Date, required: true }, count: Number }),
  );

  beforeAll(async () => {
    app = Fastify();
    installErrorHandler(app);
    app.addHook('preValidation', refuseUnsplittableMultipart);
    await app.register(async (child) => {
      await child.register(multipart);
      // no requireMultipartUpload here: the base app's hook (routes that declare the multipart body they take)
      // and the error handler (any route that reads parts) cover every upload route
      const readParts = async (req: FastifyRequest) => {
        let bytes = 0;
        for await (const part of req.parts())
          if (part.type === 'file') for await (const chunk of part.file) bytes += chunk.length;
        return { bytes };
      };
      child.post('/upload', { schema: { consumes: ['multipart/form-data'] } }, readParts);
      child.post('/undeclared-upload', readParts);
    });
    app.post('/window', async (req) => {
      await new Window(req.body as object).validate();
      return { ok: true };
    });
    app.get('/plain', async () => ({ ok: true }));
    // what the store's and Redis's clients throw while they are away, and a fault of our own
    app.get('/store-away', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:27017'), {
        name: 'MongoServerSelectionError',
      });
    });
    app.get('/redis-away', async () => {
      throw new Error('Connection is closed.');
    });
    app.get('/busy', async () => {
      throw Object.assign(new Error('canceling statement due to lock timeout'), {
        name: 'MongoServerError',
        code: 112,
      });
    });
    app.get('/bug', async () => {
      throw new TypeError('x is not a function');
    });
  });
  afterAll(() => app.close());

  const boundary = 'XyZ-boundary';
  const form =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\na,b\n1,2\n\r\n--${boundary}--\r\n`;
  const post = (contentType: string, payload: string, url = '/upload') =>
    app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  it('names what is wrong with a boundary (RFC 2046: 1 to 70 characters)', () => {
    for (const ct of [
      'multipart/form-data',
      'multipart/form-data; charset=utf-8',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      undefined,
    ])
      expect(multipartBoundaryProblem(ct), String(ct)).toBe(MULTIPART_NO_BOUNDARY);
    for (const ct of [
      `multipart/form-data; boundary=${'a'.repeat(71)}`,
      'multipart/form-data; boundary="ends with a space "',
      'multipart/form-data; boundary=a<b>',
    ])
      expect(multipartBoundaryProblem(ct), ct).toBe(MULTIPART_BAD_BOUNDARY);
    for (const ct of [
      `multipart/form-data; boundary=${'a'.repeat(70)}`,
      'multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW',
      'multipart/form-data; boundary="quoted: with space"',
      'Multipart/Form-Data; charset=utf-8; BOUNDARY=abc',
    ])
      expect(multipartBoundaryProblem(ct), ct).toBeUndefined();
  });

  it('a multipart body its parser cannot split or read is a 400 saying what to send', async () => {
    expect((await post(`multipart/form-data; boundary=${boundary}`, form)).json()).toEqual({ bytes: 8 });
    const cases: Array<[string, string, string]> = [
      ['multipart/form-data', form, MULTIPART_NO_BOUNDARY],
      [`multipart/form-data; boundary=${'b'.repeat(300)}`, form, MULTIPART_BAD_BOUNDARY],
      ['multipart/form-data; boundary=not-the-one-used', form, MULTIPART_MALFORMED],
      [`multipart/form-data; boundary=${boundary}`, form.slice(0, -12), MULTIPART_MALFORMED],
    ];
    // the hook refuses the boundary before the handler; without the hook (a route that does not declare its
    // multipart body) the parser's own errors reach the error handler, which says the same
    for (const url of ['/upload', '/undeclared-upload'])
      for (const [contentType, payload, message] of cases) {
        const res = await post(contentType, payload, url);
        expect(res.statusCode, `${url} ${contentType}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({
          code: 'BAD_REQUEST',
          message,
          details: { header: 'content-type' },
        });
      }
  });

  it('the hook leaves requests without a multipart body alone', async () => {
    const res = await app.inject({ url: '/plain', headers: { 'content-type': 'multipart/form-data' } });
    expect(res.statusCode).toBe(200);
  });

  it('a dependency away is a 503 naming it; our own fault stays a 500 that says nothing', async () => {
    const store = await app.inject({ method: 'GET', url: '/store-away' });
    expect(store.statusCode).toBe(503);
    expect(store.json()).toMatchObject({
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The database is unavailable right now. Try again in a moment.',
      details: { dependency: 'store' },
    });
    expect((await app.inject({ method: 'GET', url: '/redis-away' })).json()).toMatchObject({
      status: 503,
      details: { dependency: 'redis' },
    });
    // a write conflict that outlasted inTransaction's retries: the client's to retry
    expect((await app.inject({ method: 'GET', url: '/busy' })).json()).toMatchObject({
      status: 409,
      code: 'CONFLICT',
      message: 'This record is being changed by another request. Try again in a moment.',
    });
    const bug = await app.inject({ method: 'GET', url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json().code).toBe('INTERNAL');
    expect(bug.body).not.toContain('not a function');
  });

  it('a date the model cannot hold is a 400 naming the field, not a 500', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/window',
      payload: { endTime: 9007199254740990, count: 'many' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields).toEqual({
      endTime: 'Invalid date',
      count: 'Invalid value (expected number)',
    });
    expect(res.json().message).toBe(
      'Invalid request: endTime: Invalid date; count: Invalid value (expected number)',
    );
  });
});

/** What the handler logs of a refused document: the fields, never the values (a patient's name or birth date). */
describe('a refused document in the log', () => {
  it('names the refused fields, never their values', async () => {
    const logs = new LogCapture();
    const app = Fastify({ loggerInstance: pino(loggerOptions('debug'), logs) }) as unknown as FastifyInstance;
    installErrorHandler(app);
    const Patient = mongoose.model(
      'ErrorHandlerTestPatient',
      new mongoose.Schema({ dateOfBirth: Date, lastName: { type: String, enum: ['Nobody'] } }),
    );
    app.post('/patient', async (req) => {
      await new Patient(req.body as object).validate();
      return { ok: true };
    });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/patient',
        payload: { dateOfBirth: 'Zorabelle-30', lastName: 'Quennevillex' },
      });
      expect(res.statusCode, res.body).toBe(400);
      const refused = logs.lines.find((l) => l.includes('the model refused a document'));
      expect(JSON.parse(refused!)).toMatchObject({ level: 40, fields: ['dateOfBirth', 'lastName'] });
      expect(logs.lines.join('')).not.toMatch(/Zorabelle|Quennevillex/);
    } finally {
      await app.close();
    }
  });
});

class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.lines.push(chunk.toString());
    cb();
  }
}
