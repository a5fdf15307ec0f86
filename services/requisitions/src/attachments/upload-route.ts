/**
 * POST /attachments/upload: the file streamed into the blob store while its multipart parts arrive (the 50 MB
 * limit enforced while streaming), then the attachment and its event inserted, and linked to its requisition.
 */
import type { Multipart } from '@fastify/multipart';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BOX_EXTENSIONS, MSG, MSG_BOX_FILE_TYPE, type AttachmentType } from '@onco/domain';
import {
  auditTrailOf,
  badRequest,
  errorBody,
  errorReplies,
  newId,
  notFound,
  requireUser,
  tooLarge,
  typed,
  type SessionUser,
  newRecordAudit,
  requireMultipartUpload,
  failAtLimit,
} from '@onco/platform';
import { outboxForInsert } from '@onco/events';
import { linkAttachment, type AttachmentDoc } from '../models/attachment';
import { resolveTarget, type AttachmentRouteDeps, type UploadTarget } from './access';
import { attachmentChange } from './audit';
import {
  ATTACHMENT_MAX_BYTES,
  REQUISITION_WRITE,
  attachmentOut,
  attachmentToApi,
  attachmentEvent,
} from './shape';
import { type UploadFields, mergeAttachmentJson, setField, readSmall, isTooLarge } from './upload';

/** An upload received: its fields, the stored file and where it goes. */
interface ReceivedUpload {
  fields: UploadFields;
  stored: { id: string; size: number; sha256: string };
  fileName: string;
  contentType: string;
  target: UploadTarget;
}

/** Read the multipart parts, the file streamed into the blob store (removed again when the upload is refused). */
async function receiveUpload(
  { ctx, models }: AttachmentRouteDeps,
  req: FastifyRequest,
  user: SessionUser,
): Promise<ReceivedUpload> {
  const fields: UploadFields = {};
  let stored: { id: string; size: number; sha256: string } | null = null;
  let fileName = '';
  let contentType = 'application/octet-stream';
  let target: UploadTarget;
  const faAccount = ctx.config.FINANCIAL_ASSISTANCE_ACCOUNT || null;
  try {
    for await (const part of req.parts() as AsyncIterableIterator<Multipart>) {
      if (part.type === 'field') {
        setField(fields, part.fieldname, String(part.value ?? ''));
        continue;
      }
      if (part.fieldname === 'attachment') {
        mergeAttachmentJson(fields, await readSmall(part));
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume();
        throw badRequest('Send exactly one file, in the part named "file"', { field: part.fieldname });
      }
      fileName = (part.filename ?? '').trim().slice(0, 255);
      contentType = part.mimetype || contentType;
      // fields sent before the file are checked before a byte of it is stored (fail fast); the check is
      // repeated once every part has arrived
      if (fields.type && fields.testOrderFormId) await resolveTarget(models, user, fields, faAccount);
      try {
        stored = await ctx.blobs.put(failAtLimit(part.file) as unknown as Readable, {
          maxBytes: ATTACHMENT_MAX_BYTES,
        });
      } catch (err) {
        part.file.resume();
        throw err;
      }
      // the limit reached exactly at the end of the stream is reported by `truncated`
      if (part.file.truncated) throw tooLarge(MSG.attachmentTooLarge);
    }
    if (!stored) throw badRequest('A file is required', { field: 'file' });
    if (!fileName) throw badRequest('The file has no name', { field: 'file' });
    if (stored.size === 0) throw badRequest('The file is empty', { field: 'file' });
    target = await resolveTarget(models, user, fields, faAccount);
    if (!target.requisition) {
      const lower = fileName.toLowerCase();
      if (!BOX_EXTENSIONS.some((e) => lower.endsWith(e))) throw badRequest(MSG_BOX_FILE_TYPE);
    }
  } catch (err) {
    if (stored) await ctx.blobs.remove(stored.id).catch(() => undefined);
    if (isTooLarge(err)) throw tooLarge(MSG.attachmentTooLarge);
    throw err;
  }
  return { fields, stored, fileName, contentType, target };
}

/**
 * The upload and its attachment.changed event in one insert with its audit entry, linked to its requisition (or
 * its blob removed).
 */
async function insertAttachment(
  { ctx, models }: AttachmentRouteDeps,
  user: SessionUser,
  { fields, stored, fileName, contentType, target }: ReceivedUpload,
): Promise<AttachmentDoc> {
  const { Attachment, Requisition } = models;
  const now = new Date();
  const userName = `${user.firstName} ${user.lastName}`.trim();
  const doc: AttachmentDoc = {
    _id: newId(),
    name: fileName,
    type: fields.type as AttachmentType,
    status: 'UPLOADED',
    errorDetails: null,
    size: stored.size,
    sha256: stored.sha256,
    contentType,
    blobId: stored.id,
    account: target.account,
    testOrderForm: target.requisition ? { id: target.requisition._id } : null,
    physician: target.physician,
    submissionKey: null,
    testOrder: null,
    attachedBy: { id: user.id, name: userName },
    processedOn: null,
    ...newRecordAudit(user.id, now),
  };
  try {
    // the upload and its attachment.changed event in one insert (a SAMPLE_MANIFEST's job follows from it),
    // committed with its audit entry (`create`, naming the requisition's patient)
    await auditTrailOf(ctx).create(
      Attachment,
      { ...doc, outbox: outboxForInsert(attachmentEvent(doc, 'uploaded', user, now)) },
      attachmentChange(target.requisition?.patient?.id),
    );
    if (target.requisition) {
      const linked = await linkAttachment(Requisition, target.requisition._id, doc, user.id);
      if (!linked) {
        await Attachment.deleteOne({ _id: doc._id }).exec();
        throw notFound('Requisition not found');
      }
    }
  } catch (err) {
    await ctx.blobs.remove(stored.id).catch(() => undefined);
    throw err;
  }
  return doc;
}

export function registerUploadRoute(app: FastifyInstance, deps: AttachmentRouteDeps) {
  const r = typed(app);
  r.post(
    '/attachments/upload',
    {
      config: { permission: [...REQUISITION_WRITE, 'VIEW_BOX_PAGE'] },
      schema: {
        tags: ['attachments'],
        summary: 'Upload an attachment (multipart: file plus type, account id, testOrderForm id)',
        description:
          'Fields: `file` (at most 50MB, cut off while streaming), `type`, `accountId` (or `account.id`), ' +
          '`testOrderFormId` (or `testOrderForm.id`), optional `accountName`; or one `attachment` part holding ' +
          'the JSON {type, account: {id, name}, testOrderForm: {id}}. With a requisition the user needs ' +
          'CAN_CREATE_TRF or CAN_EDIT_TRF and must see the requisition; without one (Attachment Box) ' +
          'VIEW_BOX_PAGE, an account of theirs and a .xlsx, .xls, .csv or .pdf file.',
        consumes: ['multipart/form-data'],
        response: { 201: attachmentOut, 413: errorBody, ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      requireMultipartUpload(req, ATTACHMENT_MAX_BYTES);

      const upload = await receiveUpload(deps, req, user);
      const doc = await insertAttachment(deps, user, upload);
      deps.ctx.nudgeOutbox();
      req.log.info(
        {
          attachmentId: doc._id,
          size: doc.size,
          type: doc.type,
          requisitionId: doc.testOrderForm?.id ?? null,
        },
        'attachment uploaded',
      );
      return reply.status(201).send(attachmentToApi(doc));
    },
  );
}
