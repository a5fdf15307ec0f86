/** What attachments look like to the API and to downstream: scope, list resource, reply shape, event, download. */
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { Permission } from '@onco/domain';
import {
  can,
  dateOut,
  notFound,
  scopeFilter,
  type ListResource,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import { createEvent, type AttachmentChange } from '@onco/events';
import { type AttachmentDoc } from '../models/attachment';

// the Box's rules and the size limit live in @onco/domain (the console's upload controls use them too)
import { REQUISITION_ATTACH_PERMISSIONS } from '@onco/domain';
export {
  ATTACHMENT_MAX_BYTES,
  REQUISITION_UPLOAD_TYPES,
  BOX_UPLOAD_TYPES,
  BOX_EXTENSIONS,
  MSG_BOX_FILE_TYPE,
} from '@onco/domain';

/** Who may attach to a requisition: the domain's rule (the console's upload controls use it too). */
export const REQUISITION_WRITE: Permission[] = [...REQUISITION_ATTACH_PERMISSIONS];

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
 * a SAMPLE_MANIFEST's rows within that scope (docs/manifests.md); and the uploader's role (schemaVersion 2), under
 * which the lab records that apply in the audit trail (null when someone else deletes the upload).
 */
export function attachmentEvent(doc: AttachmentDoc, change: AttachmentChange, user: SessionUser, at: Date) {
  const actor = { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.loginId };
  const byUploader = !doc.attachedBy?.id || doc.attachedBy.id === user.id;
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
        uploaderRole: byUploader ? user.role : null,
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
