import type { Readable } from 'node:stream';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MSG, TEST_STATUSES } from '@onco/domain';
import {
  badRequest,
  BlobTooLargeError,
  errorBody,
  errorReplies,
  idParams,
  notFound,
  requireUser,
  tooLarge,
  typed,
  type PlatformContext,
  type SessionUser,
  type StoredBlob,
} from '@onco/platform';
import type { LabModels, ReportVersion } from '../models';
import {
  createPendingReport,
  findReportVersion,
  MSG_REPORT_FILE_TYPE,
  pdfSignatureCheck,
  pendingReportFile,
  REPORT_MAX_BYTES,
  submitReport,
  sweepExpiredReportUploads,
  uploadableTestOrder,
} from '../report-service';
import { testOrderOut } from '../test-order-service';

/**
 * Test reports (spec 2 sections 2.5, 4, 5, 7 "Test orders"), mounted in the orders area (/oms/api/v1):
 *
 *   POST /testOrders/{id}/reports/upload             multipart `file` (+ isAmendedReport, isTnpReportComplete)
 *                                                    -> {filePath}; with ?submit=true also submits it
 *   POST /testOrders/{id}/reports/submit             ?filePath&amendedFlag&tnpReportCompleteFlag -> the test order
 *   POST /testOrders/updateTestStatusWithReport      {uuid, status: TNP_REPORT_COMPLETE, filePath} (the TNP path)
 *   GET  /testOrders/{id}/reports/download[?version] the PDF (latest by default; every version stays available)
 *   GET  /testOrders/reports/file?filePath           the uploader's own pending (not yet submitted) file
 *
 * The upload is streamed: socket -> multipart parser -> PDF signature check -> blob store's temporary file.
 * Nothing is buffered beyond the first five bytes. The 50MB limit is enforced while streaming (413); an
 * interrupted or refused upload removes what was written and records nothing.
 */

const PDF_CONTENT_TYPE = 'application/pdf';

/** A flag sent as a form field or query value: true, false, 1, 0, on, off, yes, no (any case). */
export function flagValue(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(s)) return true;
  if (['false', '0', 'off', 'no', ''].includes(s)) return false;
  throw badRequest(`Invalid flag value: ${v}`);
}

const flagQuery = z
  .string()
  .max(10)
  .optional()
  .describe('true or false (also 1/0); absent: the value sent with the upload');

const testOrderReply = z.looseObject({ id: z.string(), status: z.enum(TEST_STATUSES) });

const uploadReply = z.object({
  filePath: z.string().describe('Opaque reference to the uploaded, not yet submitted file'),
  testOrder: testOrderReply.optional().describe('With ?submit=true: the test order after the submit'),
});

/** `inline; filename="..."; filename*=UTF-8''...` (ASCII fallback plus the exact name). */
function contentDisposition(name: string, disposition: 'inline' | 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const isFileTooLarge = (err: any) =>
  err instanceof BlobTooLargeError || err?.code === 'FST_REQ_FILE_TOO_LARGE';

/** Read one small field sent as a file part (some clients send flags as Blobs): at most 1 KB. */
async function readSmallPart(part: MultipartFile, max = 1024): Promise<string> {
  let text = '';
  for await (const chunk of part.file) {
    text += (chunk as Buffer).toString('utf8');
    if (text.length > max) throw badRequest(`Invalid ${part.fieldname}: larger than ${max} bytes`);
  }
  return text;
}

export async function reportRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  const r = typed(app);
  const { models } = opts;
  const ctx: PlatformContext = app.platform;

  // every multipart limit set (it bypasses bodyLimit): one file of at most 50MB and the two flags
  await app.register(multipart, {
    limits: {
      fileSize: REPORT_MAX_BYTES,
      files: 3, // the report, and the two flags when a client sends them as Blobs
      fields: 10,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: 12,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });

  /**
   * Stream the request's `file` part into the blob store through the PDF check and collect the flags. On any
   * failure (not a PDF, too large, the client went away, a malformed body) what was stored is removed.
   */
  // Expired uploads are swept after an upload, beside the requests (the answer does not wait for it), one sweep
  // at a time in this process.
  let sweeping = false;
  function sweepSoon(log: FastifyRequest['log']) {
    if (sweeping) return;
    sweeping = true;
    void sweepExpiredReportUploads(models, ctx.blobs)
      .catch((err) => log.warn({ err }, 'sweeping expired report uploads failed'))
      .finally(() => (sweeping = false));
  }

  async function receiveReport(req: FastifyRequest) {
    const flags: Record<string, string> = {};
    let stored: StoredBlob | null = null;
    let fileName = '';
    try {
      for await (const part of req.parts() as AsyncIterableIterator<Multipart>) {
        if (part.type === 'field') {
          flags[part.fieldname] = String(part.value ?? '');
          continue;
        }
        if (part.fieldname !== 'file') {
          flags[part.fieldname] = await readSmallPart(part);
          continue;
        }
        if (stored) {
          part.file.resume();
          throw badRequest('Send exactly one file, in the part named "file"', { field: 'file' });
        }
        fileName = (part.filename ?? '').trim().slice(0, 255) || 'report.pdf';
        const checked = pdfSignatureCheck();
        // errors of the source (the client went away, the body is malformed) fail the store too
        part.file.on('error', (err) => checked.destroy(err));
        // An error raised before the store's pipeline attaches (the first chunk is already buffered when the
        // store is still creating its directory) stays on the stream (`errored`) and fails that pipeline; this
        // listener only keeps it from being an uncaught exception meanwhile.
        checked.on('error', () => undefined);
        part.file.pipe(checked);
        try {
          stored = await ctx.blobs.put(checked as Readable, { maxBytes: REPORT_MAX_BYTES });
        } catch (err) {
          // refused (not a PDF, too large): read the rest of the part and drop it, so the client gets the answer
          part.file.unpipe(checked);
          part.file.resume();
          throw err;
        }
        // the limit reached exactly at the end of the stream is reported by `truncated`
        if (part.file.truncated) throw tooLarge(MSG.attachmentTooLarge);
      }
      if (!stored) throw badRequest('A file is required', { field: 'file' });
      return {
        stored,
        fileName,
        amended: flagValue(flags.isAmendedReport ?? flags.amendedFlag) ?? false,
        tnp: flagValue(flags.isTnpReportComplete ?? flags.tnpReportCompleteFlag) ?? false,
      };
    } catch (err) {
      if (stored) await ctx.blobs.remove(stored.id).catch(() => undefined);
      if (isFileTooLarge(err)) throw tooLarge(MSG.attachmentTooLarge);
      throw err;
    }
  }

  r.post(
    '/testOrders/:id/reports/upload',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary:
          'Upload Report: stream a PDF for a test (multipart `file`, isAmendedReport, isTnpReportComplete)',
        description:
          'Step 1 of 2. Stores the file (a PDF by its content: it must start with `%PDF-`, else 400 "' +
          MSG_REPORT_FILE_TYPE +
          '"; at most 50MB, cut off while streaming with 413) as a PENDING upload of the caller for this test ' +
          'and answers `filePath`. The test order does not change until `POST /testOrders/{id}/reports/submit` ' +
          '(or `updateTestStatusWithReport` for TNP) attaches it; a pending upload expires after 24 hours. With ' +
          '`?submit=true` the upload is submitted at once with the flags sent in the form (one call). The test ' +
          'must be in scope (404) and neither cancelled nor still ordered (409), checked before a byte is stored.',
        params: idParams,
        querystring: z.object({ submit: flagQuery.describe('true: submit the upload at once') }),
        consumes: ['multipart/form-data'],
        response: { 200: uploadReply, 413: errorBody, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const id = req.params.id;
      const submitNow = flagValue(req.query.submit) ?? false;
      if (!req.isMultipart()) throw badRequest('Expected a multipart/form-data upload with a file');
      // A Content-Length far above the limit is refused before a byte is read.
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > REPORT_MAX_BYTES + 1024 * 1024)
        throw tooLarge(MSG.attachmentTooLarge);
      // fail fast: out of scope (404) or a status that takes no report (409) stores nothing
      await uploadableTestOrder(models, user, id);

      const got = await receiveReport(req);
      let pending;
      try {
        pending = await createPendingReport(models, user, id, got.stored, got);
      } catch (err) {
        await ctx.blobs.remove(got.stored.id).catch(() => undefined);
        throw err;
      }
      req.log.info({ testOrderId: id, filePath: pending._id, size: pending.size }, 'report uploaded');
      sweepSoon(req.log);
      if (!submitNow) return { filePath: pending._id };
      const done = await submitReport(models, user, id, pending._id);
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: id, version: done.report.version }, 'report submitted');
      return { filePath: pending._id, testOrder: testOrderOut(done.testOrder) };
    },
  );

  r.post(
    '/testOrders/:id/reports/submit',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'Submit an uploaded report: attach it as the next report version and set the status',
        description:
          'Step 2 of 2. `filePath` is the answer of the upload; only its uploader may submit it, only to the ' +
          'test it was uploaded to (else 404), once (409 the second time). The status comes from the flags ' +
          '(amended: REPORT_AMENDED; TNP: TNP_REPORT_COMPLETE; else REPORT_COMPLETE); a flag left out takes the ' +
          'value sent with the upload. One write of the test order: status, report version, history entry and ' +
          'the test-status event (`change: "report"`). A cancelled or not yet started test is refused (409).',
        params: idParams,
        querystring: z.object({
          filePath: z.string().min(1).max(64),
          amendedFlag: flagQuery,
          tnpReportCompleteFlag: flagQuery,
        }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await submitReport(models, user, req.params.id, req.query.filePath, {
        amended: flagValue(req.query.amendedFlag),
        tnp: flagValue(req.query.tnpReportCompleteFlag),
      });
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: req.params.id, version: done.report.version }, 'report submitted');
      return testOrderOut(done.testOrder);
    },
  );

  r.post(
    '/testOrders/updateTestStatusWithReport',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'TNP report: attach an uploaded report and set TNP_REPORT_COMPLETE',
        description:
          'The TNP path of the report upload: as submit with tnpReportCompleteFlag=true and amendedFlag=false.',
        body: z.object({
          uuid: z.string().min(1).max(64),
          status: z.literal('TNP_REPORT_COMPLETE'),
          filePath: z.string().min(1).max(64),
        }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await submitReport(models, user, req.body.uuid, req.body.filePath, {
        amended: false,
        tnp: true,
      });
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: req.body.uuid, version: done.report.version }, 'TNP report submitted');
      return testOrderOut(done.testOrder);
    },
  );

  async function sendPdf(reply: FastifyReply, blobId: string, name: string, size: number, etag: string) {
    let stream: Readable;
    try {
      stream = await ctx.blobs.get(blobId);
    } catch {
      throw notFound('The report file is not available');
    }
    return reply
      .header('Content-Type', PDF_CONTENT_TYPE)
      .header('Content-Disposition', contentDisposition(name, 'inline'))
      .header('Content-Length', String(size))
      .header('ETag', `"${etag}"`)
      .header('Cache-Control', 'private, no-cache')
      .send(stream);
  }

  r.get(
    '/testOrders/:id/reports/download',
    {
      config: { permission: ['VIEW_TEST_PAGE', 'VIEW_ORDER_PAGE'] },
      schema: {
        tags: ['tests'],
        summary: 'Download a test report (the PDF; the latest version unless `version` is given)',
        description:
          'Every version ever submitted stays available (amendments add versions, none is removed). 404 when ' +
          'the test is outside the data scope, has no report ("No PDF File Available.") or lacks the version.',
        params: idParams,
        querystring: z.object({ version: z.coerce.number().int().min(1).max(100_000).optional() }),
        response: { 200: z.unknown().describe('The PDF'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const v: ReportVersion = await findReportVersion(models, user, req.params.id, req.query.version);
      return sendPdf(reply, v.fileId, v.fileName, v.size, `${v.fileId}`);
    },
  );

  r.get(
    '/testOrders/reports/file',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary:
          'Download one of one\u2019s own uploaded, not yet submitted reports by `filePath` (a preview)',
        querystring: z.object({ filePath: z.string().min(1).max(64) }),
        response: { 200: z.unknown().describe('The PDF'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user: SessionUser = requireUser(req);
      const p = await pendingReportFile(models, user, req.query.filePath);
      return sendPdf(reply, p.blobId, p.fileName, p.size, p.sha256);
    },
  );
}
