import { requisitionByIdFilter } from '../resource';
import { Readable } from 'node:stream';
import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  BOX_EXTENSIONS,
  BOX_UPLOAD_TYPES,
  MSG,
  MSG_BOX_FILE_TYPE,
  REQUISITION_UPLOAD_TYPES,
  type AttachmentType,
  type Permission,
} from '@onco/domain';
import {
  AppError,
  BlobTooLargeError,
  badRequest,
  can,
  dateOut,
  errorBody,
  errorReplies,
  forbidden,
  idParams,
  listRoutes,
  newId,
  notFound,
  requireUser,
  scopeFilter,
  tooLarge,
  typed,
  type ListResource,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import { createEvent, outboxForInsert, withOutbox, type AttachmentChange } from '@onco/events';
import { linkAttachment, unlinkAttachment, type AttachmentDoc } from '../models/attachment';
import type { RequisitionDoc } from '../models/requisition';
import type { RequisitionModels } from '../models';

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

/** 50MB (spec 1 section 9), in bytes */
export const ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;

// the Box's rules live in @onco/domain (the console's upload dialog uses them too)
export { REQUISITION_UPLOAD_TYPES, BOX_UPLOAD_TYPES, BOX_EXTENSIONS, MSG_BOX_FILE_TYPE } from '@onco/domain';

const REQUISITION_WRITE: Permission[] = ['CAN_CREATE_TRF', 'CAN_EDIT_TRF'];

/** Who sees an attachment: the requisition's data scope (account or physician), plus one's own uploads. */
export const attachmentScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'account.id', physician: 'physician.id', owner: 'attachedBy.id' });
/** Who sees a requisition (spec 1 section 6 "Data scope"). */
export const requisitionScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'account.id', physician: 'physician.id' });

export const attachmentsResource: ListResource = {
  name: 'attachments',
  fields: {
    id: { type: 'id', path: '_id', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    type: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    accountName: { type: 'string', path: 'account.name', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    testOrderFormId: { type: 'id', path: 'testOrderForm.id', filter: true },
    attachedBy: { type: 'string', path: 'attachedBy.name', filter: true, sort: true },
    size: { type: 'number', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    processedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'account.name', 'attachedBy.name'],
  facets: [
    { name: 'attachment_type_facet', field: 'type' },
    { name: 'attachment_status_facet', field: 'status' },
    { name: 'account_facet', field: 'accountName' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
};

export const attachmentOut = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  status: z.string(),
  errorDetails: z.string().nullable(),
  size: z.number(),
  sha256: z.string().nullable(),
  contentType: z.string(),
  account: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  testOrderForm: z.object({ id: z.string().nullable() }).nullable(),
  attachedBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  processedOn: dateOut.nullable(),
  deleted: z.boolean(),
  createdOn: dateOut,
  updatedOn: dateOut,
});

/** The API shape of an attachment record (no blob id, no internal fields). */
export function attachmentToApi(d: AttachmentDoc): z.infer<typeof attachmentOut> {
  return {
    id: d._id,
    name: d.name,
    type: d.type,
    status: d.status,
    errorDetails: d.errorDetails ?? null,
    size: d.size,
    sha256: d.sha256 ?? null,
    contentType: d.contentType,
    account: d.account ? { id: d.account.id ?? null, name: d.account.name ?? null } : null,
    testOrderForm: d.testOrderForm ? { id: d.testOrderForm.id ?? null } : null,
    attachedBy: d.attachedBy ? { id: d.attachedBy.id ?? null, name: d.attachedBy.name ?? null } : null,
    processedOn: d.processedOn ?? null,
    deleted: d.deleted,
    createdOn: d.createdOn,
    updatedOn: d.updatedOn,
  };
}

/**
 * The `attachment.changed` event of a user's upload or delete (docs/events.md "attachment"), committed with the
 * insert or the update. It carries the uploader's data scope and whether they may change samples: the lab applies
 * a SAMPLE_MANIFEST's rows within that scope (docs/manifests.md).
 */
export function attachmentEvent(doc: AttachmentDoc, change: AttachmentChange, user: SessionUser, at: Date) {
  const actor = { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.loginId };
  return createEvent(
    'attachment',
    {
      data: {
        attachmentId: doc._id,
        change,
        type: doc.type,
        name: doc.name,
        contentType: doc.contentType.slice(0, 200),
        size: doc.size,
        sha256: doc.sha256,
        blobId: doc.blobId,
        accountId: doc.account?.id ?? null,
        accountName: doc.account?.name ?? null,
        requisitionId: doc.testOrderForm?.id ?? null,
        uploadedBy: { id: doc.attachedBy?.id ?? user.id, name: doc.attachedBy?.name ?? actor.name },
        uploaderScope: {
          allAccounts: user.allAccounts,
          accountIds: user.accountIds,
          physicianIds: user.physicianIds,
          mayEditSamples: can(user, 'VIEW_SAMPLE_ACTIONS'),
        },
        changedBy: actor,
        changedOn: at.toISOString(),
      },
    },
    { now: () => at },
  );
}

/** `attachment; filename="..."; filename*=UTF-8''...` (ASCII fallback plus the exact name). */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** The fields of an upload, under any of the names a client may use (see README "Attachments"). */
interface UploadFields {
  type?: string;
  accountId?: string;
  accountName?: string;
  testOrderFormId?: string;
}

const FIELD_ALIASES: Record<string, keyof UploadFields> = {
  type: 'type',
  attachmentType: 'type',
  'attachment.type': 'type',
  accountId: 'accountId',
  'account.id': 'accountId',
  'attachment.account.id': 'accountId',
  accountName: 'accountName',
  'account.name': 'accountName',
  testOrderFormId: 'testOrderFormId',
  'testOrderForm.id': 'testOrderFormId',
  'attachment.testOrderForm.id': 'testOrderFormId',
  trfId: 'testOrderFormId',
};

/** Merge an `attachment` JSON object ({type, account: {id, name}, testOrderForm: {id}}) into the fields. */
function mergeAttachmentJson(fields: UploadFields, text: string) {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest('Invalid attachment: not valid JSON', { field: 'attachment' });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw badRequest('Invalid attachment: expected a JSON object', { field: 'attachment' });
  const a = v as Record<string, any>;
  const str = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : undefined);
  fields.type ??= str(a.type);
  fields.accountId ??= str(a.accountId) ?? str(a.account?.id);
  fields.accountName ??= str(a.accountName) ?? str(a.account?.name);
  fields.testOrderFormId ??= str(a.testOrderFormId) ?? str(a.testOrderForm?.id);
}

function setField(fields: UploadFields, name: string, value: string) {
  if (name === 'attachment') return mergeAttachmentJson(fields, value);
  const key = FIELD_ALIASES[name];
  if (!key) return; // unknown fields are ignored (a client may send the whole attachment object's fields)
  const v = value.trim();
  if (v !== '' && v !== 'null' && v !== 'undefined') fields[key] = v;
}

async function readSmall(part: MultipartFile, max = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file) {
    size += (chunk as Buffer).length;
    if (size > max) throw badRequest(`Invalid ${part.fieldname}: larger than ${max} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const isTooLarge = (err: any) =>
  err instanceof BlobTooLargeError || err?.code === 'FST_REQ_FILE_TOO_LARGE' || err?.statusCode === 413;

const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

export interface AttachmentRoutesOptions {
  models: RequisitionModels;
}

export async function attachmentRoutes(app: FastifyInstance, opts: AttachmentRoutesOptions) {
  const r = typed(app);
  const { Attachment, Requisition } = opts.models;
  const ctx: PlatformContext = app.platform;

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

  /** the requisition the user may see, or 404 */
  async function visibleRequisition(user: SessionUser, id: string): Promise<RequisitionDoc> {
    if (!ID_RE.test(id)) throw notFound('Requisition not found');
    const doc = await Requisition.findOne(requisitionByIdFilter(user, id), { outbox: 0 })
      .lean<RequisitionDoc>()
      .exec();
    if (!doc) throw notFound('Requisition not found');
    return doc;
  }

  /** the attachment the user may see (not deleted), or 404 */
  async function visibleAttachment(user: SessionUser, id: string): Promise<AttachmentDoc> {
    // the scope in the query: its account or physician is the user's, or the user attached it
    const scope = attachmentScope(user);
    const filter = { _id: id, deleted: { $ne: true } };
    const doc = await Attachment.findOne(Object.keys(scope).length ? { $and: [filter, scope] } : filter)
      .lean<AttachmentDoc>()
      .exec();
    if (!doc) throw notFound('Attachment not found');
    return doc;
  }

  function checkFields(user: SessionUser, fields: UploadFields) {
    const onRequisition = !!fields.testOrderFormId;
    if (onRequisition && !REQUISITION_WRITE.some((p) => can(user, p))) throw forbidden();
    if (!onRequisition && !can(user, 'VIEW_BOX_PAGE')) throw forbidden();
    if (!fields.type) throw badRequest('The attachment type is required', { field: 'type' });
    if (fields.type === 'TRF')
      throw badRequest('A TRF attachment is generated by the system and cannot be uploaded', {
        field: 'type',
      });
    const allowed: readonly string[] = onRequisition ? REQUISITION_UPLOAD_TYPES : BOX_UPLOAD_TYPES;
    if (!allowed.includes(fields.type))
      throw badRequest(`Invalid attachment type: ${fields.type}`, { field: 'type' });
    if (!onRequisition) {
      if (!fields.accountId) throw badRequest('The account id is required', { field: 'accountId' });
      if (!ID_RE.test(fields.accountId)) throw notFound('Account not found');
      if (!user.allAccounts && !user.accountIds.includes(fields.accountId))
        throw notFound('Account not found');
    }
  }

  /** where the attachment goes: a requisition the user can see, or an account of theirs */
  async function resolveTarget(user: SessionUser, fields: UploadFields) {
    checkFields(user, fields);
    if (fields.testOrderFormId) {
      const trf = await visibleRequisition(user, fields.testOrderFormId);
      if (fields.accountId && trf.account?.id && fields.accountId !== trf.account.id)
        throw badRequest("The account does not match the requisition's account", { field: 'accountId' });
      return {
        requisition: trf,
        account: { id: trf.account?.id ?? null, name: trf.account?.name ?? null },
        physician: { id: trf.physician?.id ?? null },
      };
    }
    return {
      requisition: null,
      account: { id: fields.accountId!, name: fields.accountName ?? null },
      physician: null,
    };
  }

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
      if (!req.isMultipart()) throw badRequest('Expected a multipart/form-data upload with a file');
      // A Content-Length far above the limit is refused before a byte is read.
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > ATTACHMENT_MAX_BYTES + 1024 * 1024)
        throw tooLarge(MSG.attachmentTooLarge);

      const fields: UploadFields = {};
      let stored: { id: string; size: number; sha256: string } | null = null;
      let fileName = '';
      let contentType = 'application/octet-stream';
      let target: Awaited<ReturnType<typeof resolveTarget>>;
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
          if (fields.type && fields.testOrderFormId) await resolveTarget(user, fields);
          try {
            stored = await ctx.blobs.put(part.file as unknown as Readable, {
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
        target = await resolveTarget(user, fields);
        if (!target.requisition) {
          const lower = fileName.toLowerCase();
          if (!BOX_EXTENSIONS.some((e) => lower.endsWith(e))) throw badRequest(MSG_BOX_FILE_TYPE);
        }
      } catch (err) {
        if (stored) await ctx.blobs.remove(stored.id).catch(() => undefined);
        if (isTooLarge(err)) throw tooLarge(MSG.attachmentTooLarge);
        throw err;
      }

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
        createdOn: now,
        createdBy: user.id,
        updatedOn: now,
        updatedBy: user.id,
        version: 0,
        archived: false,
        deleted: false,
      };
      try {
        // the upload and its attachment.changed event in one insert (a SAMPLE_MANIFEST's job follows from it)
        await Attachment.create({
          ...doc,
          outbox: outboxForInsert(attachmentEvent(doc, 'uploaded', user, now)),
        });
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
      ctx.nudgeOutbox();
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

  r.get(
    '/attachments/:id/download',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['attachments'],
        summary: 'Download an attachment (the file, under its name)',
        params: idParams,
        response: { 200: z.unknown().describe('The file, as an attachment'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const doc = await visibleAttachment(user, req.params.id);
      return sendBlob(ctx, reply, doc);
    },
  );

  r.put(
    '/attachments/:id',
    {
      config: { permission: [...REQUISITION_WRITE, 'VIEW_BOX_PAGE'] },
      schema: {
        tags: ['attachments'],
        summary: 'Remove an attachment ({deleted: true}: a soft delete; off the requisition, record kept)',
        params: idParams,
        body: z.looseObject({ deleted: z.boolean() }),
        response: { 200: attachmentOut, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await visibleAttachment(user, req.params.id);
      if (req.body.deleted !== true)
        throw badRequest('Only {"deleted": true} is supported on an attachment', { field: 'deleted' });
      const requisitionId = doc.testOrderForm?.id ?? null;
      if (requisitionId) {
        if (doc.type === 'TRF' ? !can(user, 'CAN_DELETE_TRF') : !REQUISITION_WRITE.some((p) => can(user, p)))
          throw forbidden();
      } else {
        if (!can(user, 'VIEW_BOX_PAGE')) throw forbidden();
        if (doc.status !== 'UPLOADED')
          throw new AppError(409, 'CONFLICT', 'Only an attachment with status UPLOADED can be deleted');
      }
      const now = new Date();
      // conditional on what was checked: not deleted yet, and (Attachment Box) still UPLOADED
      const updated = await Attachment.findOneAndUpdate(
        { _id: doc._id, deleted: false, ...(requisitionId ? {} : { status: 'UPLOADED' }) },
        withOutbox(
          { $set: { deleted: true, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } },
          attachmentEvent(doc, 'deleted', user, now),
        ),
        { returnDocument: 'after' },
      )
        .lean<AttachmentDoc>()
        .exec();
      if (!updated) {
        if (!requisitionId && (await Attachment.exists({ _id: doc._id, deleted: false })))
          throw new AppError(409, 'CONFLICT', 'Only an attachment with status UPLOADED can be deleted');
        throw notFound('Attachment not found');
      }
      ctx.nudgeOutbox();
      if (requisitionId) await unlinkAttachment(Requisition, requisitionId, doc._id, user.id);
      req.log.info({ attachmentId: doc._id, requisitionId }, 'attachment deleted');
      return attachmentToApi(updated);
    },
  );

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
  });
}

/** Stream a stored attachment with its name, type, size and checksum. */
export async function sendBlob(
  ctx: PlatformContext,
  reply: FastifyReply,
  doc: AttachmentDoc,
  disposition: 'attachment' | 'inline' = 'attachment',
) {
  if (!doc.blobId) throw notFound('The file of this attachment is not available');
  let stream: Readable;
  try {
    stream = await ctx.blobs.get(doc.blobId);
  } catch {
    throw notFound('The file of this attachment is not available');
  }
  return reply
    .header('Content-Type', doc.contentType || 'application/octet-stream')
    .header('Content-Disposition', contentDisposition(doc.name, disposition))
    .header('Content-Length', String(doc.size))
    .header('ETag', `"${doc.sha256}"`)
    .header('Cache-Control', 'private, no-cache')
    .send(stream);
}
