import type { Readable } from 'node:stream';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MSG } from '@onco/domain';
import {
  badRequest,
  BlobTooLargeError,
  errorBody,
  errorReplies,
  idParams,
  requireUser,
  tooLarge,
  typed,
  type PlatformContext,
  type StoredBlob,
  requireMultipartUpload,
  failAtLimit,
} from '@onco/platform';
import type { LabModels } from '../models';
import {
  createPendingReport,
  MSG_REPORT_FILE_TYPE,
  pdfSignatureCheck,
  REPORT_MAX_BYTES,
  submitReport,
  sweepExpiredReportUploads,
  uploadableTestOrder,
} from '../use-cases';
import { testOrderOut } from '../use-cases';
import { flagQuery, flagValue, testOrderReply } from './report-submit-routes';

const uploadReply = z.object({
  filePath: z.string().describe('Opaque reference to the uploaded, not yet submitted file'),
  testOrder: testOrderReply.optional().describe('With ?submit=true: the test order after the submit'),
});

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

/**
 * Stream the request's `file` part into the blob store through the PDF check and collect the flags. On any
 * failure (not a PDF, too large, the client went away, a malformed body) what was stored is removed.
 */
async function receiveReport(ctx: PlatformContext, req: FastifyRequest) {
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
      failAtLimit(part.file).pipe(checked);
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

/** Upload Report (reports.ts): the streamed upload, submitted at once with ?submit=true. */
export function registerReportUploadRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  const r = typed(app);
  const { models } = opts;
  const ctx: PlatformContext = app.platform;

  // Expired uploads are swept after an upload, beside the requests (the answer does not wait for it), one sweep
  // at a time in this process.
  let sweeping = false;
  function sweepSoon(log: FastifyRequest['log']) {
    if (sweeping) return;
    sweeping = true;
    void sweepExpiredReportUploads({ models }, ctx.blobs)
      .catch((err) => log.warn({ err }, 'sweeping expired report uploads failed'))
      .finally(() => (sweeping = false));
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
      requireMultipartUpload(req, REPORT_MAX_BYTES);
      // fail fast: out of scope (404) or a status that takes no report (409) stores nothing
      const testOrder = await uploadableTestOrder({ models }, user, id);

      const got = await receiveReport(ctx, req);
      let pending;
      try {
        pending = await createPendingReport({ models }, user, testOrder, got.stored, got);
      } catch (err) {
        await ctx.blobs.remove(got.stored.id).catch(() => undefined);
        throw err;
      }
      req.log.info({ testOrderId: id, filePath: pending._id, size: pending.size }, 'report uploaded');
      sweepSoon(req.log);
      if (!submitNow) return { filePath: pending._id };
      const done = await submitReport({ models }, user, id, pending._id);
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: id, version: done.report.version }, 'report submitted');
      return { filePath: pending._id, testOrder: testOrderOut(done.testOrder, user) };
    },
  );
}
