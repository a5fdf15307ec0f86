import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { LabModels } from '../models';
import { REPORT_MAX_BYTES } from '../use-cases';
import { registerReportDownloadRoutes } from './report-download-routes';
import { registerReportSubmitRoutes } from './report-submit-routes';
import { registerReportUploadRoutes } from './report-upload-routes';

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

export async function reportRoutes(app: FastifyInstance, opts: { models: LabModels }) {
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

  registerReportUploadRoutes(app, opts);
  registerReportSubmitRoutes(app, opts);
  registerReportDownloadRoutes(app, opts);
}
