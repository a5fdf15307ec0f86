import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  auditSubject,
  errorReplies,
  idParams,
  notFound,
  requireUser,
  typed,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import type { LabModels, ReportVersion } from '../models';
import { findReportVersion, pendingReportFile } from '../use-cases';

const PDF_CONTENT_TYPE = 'application/pdf';

/** `inline; filename="..."; filename*=UTF-8''...` (ASCII fallback plus the exact name). */
function contentDisposition(name: string, disposition: 'inline' | 'attachment'): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Download a report version, or one's own pending upload (reports.ts). */
export function registerReportDownloadRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  const r = typed(app);
  const { models } = opts;
  const ctx: PlatformContext = app.platform;

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
      config: {
        permission: ['VIEW_TEST_PAGE', 'VIEW_ORDER_PAGE'],
        audit: { record: 'report', action: 'download' },
      },
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
      const found = await findReportVersion({ models }, user, req.params.id, req.query.version);
      const f = found.testOrderForm;
      auditSubject(req, { patientId: f?.patient?.id, accountIds: [f?.account?.id] });
      const v: ReportVersion = found;
      return sendPdf(reply, v.fileId, v.fileName, v.size, `${v.fileId}`);
    },
  );

  r.get(
    '/testOrders/reports/file',
    {
      // a preview of a report not yet submitted: a download of the test's report, naming its patient
      config: { permission: 'VIEW_TESTORDER_ACTIONS', audit: { record: 'report', action: 'download' } },
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
      const p = await pendingReportFile({ models }, user, req.query.filePath);
      const test = await models.TestOrder.findById(p.testOrderId, { testOrderForm: 1 }).lean().exec();
      const f = test?.testOrderForm;
      auditSubject(req, { id: p.testOrderId, patientId: f?.patient?.id, accountIds: [f?.account?.id] });
      return sendPdf(reply, p.blobId, p.fileName, p.size, p.sha256);
    },
  );
}
