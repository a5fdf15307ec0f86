/**
 * Attachments (spec 1 sections 3, 5, 7, 8, 9; spec 3 sections 2.8, 4.2, 7.2), mounted in the portal area:
 *
 *   POST /attachments/upload          multipart: `file` plus the attachment's fields (see parseFields)
 *   GET  /attachments/{id}/download   the bytes, as an attachment under its name
 *   PUT  /attachments/{id}            {deleted: true}: soft delete (off the requisition's list, record kept)
 *   GET  /attachments, /facets        the Document Uploads list (filter type, status, accountName, createdOn, q)
 *
 * The 50 MB limit is enforced while streaming: @fastify/multipart's fileSize limit cuts the file stream off
 * at 50 MB + 1 byte, the blob store writes to a temporary file that it removes on the error, and the reply
 * is 413 with the spec's message. Nothing is buffered: the bytes go from the socket to the file store.
 */
import multipart from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { errorReplies, idParams, listRoutes, requireUser, typed, type PlatformContext } from '@onco/platform';
import type { AttachmentDoc } from '../models/attachment';
import type { RequisitionModels } from '../models';
import { auditRequisition, requisitionOf } from '../routes/audit';
import { visibleAttachment, type AttachmentRouteDeps } from './access';
import { registerDeleteRoute } from './delete-route';
import {
  ATTACHMENT_MAX_BYTES,
  attachmentScope,
  attachmentsResource,
  attachmentOut,
  attachmentToApi,
  sendBlob,
} from './shape';
import { registerUploadRoute } from './upload-route';

export interface AttachmentRoutesOptions {
  models: RequisitionModels;
}

/** The routes, registered in this plugin after its multipart parser (upload and delete in files of their own). */
export async function attachmentRoutes(app: FastifyInstance, opts: AttachmentRoutesOptions) {
  const r = typed(app);
  const { Attachment } = opts.models;
  const ctx: PlatformContext = app.platform;
  const deps: AttachmentRouteDeps = { ctx, models: opts.models };

  // every multipart limit set (it bypasses bodyLimit): one file of at most 50MB, a few small fields
  await app.register(multipart, {
    limits: {
      fileSize: ATTACHMENT_MAX_BYTES,
      files: 2, // the file, and the `attachment` JSON when a client sends it as a Blob
      fields: 20,
      fieldSize: 64 * 1024,
      fieldNameSize: 100,
      parts: 24,
      headerPairs: 50,
    },
    throwFileSizeLimit: true,
  });

  registerUploadRoute(app, deps);

  r.get(
    '/attachments/:id/download',
    {
      config: { permission: 'AUTHENTICATED', audit: { record: 'attachment', action: 'download' } },
      schema: {
        tags: ['attachments'],
        summary: 'Download an attachment (the file, under its name)',
        params: idParams,
        response: { 200: z.unknown().describe('The file, as an attachment'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const doc = await visibleAttachment(opts.models, user, req.params.id);
      // the entry names the requisition's patient when the file is attached to one
      const requisition = await requisitionOf(opts.models, doc.testOrderForm?.id);
      auditRequisition(
        req,
        { patient: requisition?.patient, account: requisition?.account ?? doc.account },
        doc._id,
      );
      return sendBlob(ctx, reply, doc);
    },
  );

  registerDeleteRoute(app, deps);

  listRoutes(app, {
    path: '/attachments',
    resource: attachmentsResource,
    model: Attachment,
    permission: 'AUTHENTICATED',
    scope: (user) => ({ deleted: false, ...attachmentScope(user) }),
    tag: 'attachments',
    noun: 'attachments (Document Uploads)',
    map: (d: AttachmentDoc) => attachmentToApi(d),
    row: attachmentOut,
    // the uploads' names may speak of patients: each page served is recorded (its rows counted; an upload names
    // no patient until it is attached to an order)
    audit: { record: 'attachment', patientOf: () => null },
  });
}
