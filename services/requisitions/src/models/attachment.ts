import type { Connection, Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  ALL_ATTACHMENT_TYPES,
  ATTACHMENT_STATUSES,
  type AttachmentType,
  type RecordFields,
} from '@onco/domain';
import type { OutboxEntry } from '@onco/events';
import { idName, outboxField, str, sub } from './common';
import type { RequisitionDoc } from './requisition';

/**
 * An uploaded file (spec 1 section 3 "Attachment", spec 3 section 3 and 4.2): its metadata here, its bytes in
 * the blob store under `blobId`. Status UPLOADED -> PROCESSED | ERROR (errorDetails): for a SAMPLE_MANIFEST the
 * lab's result (consumers/sample-manifest.ts). A user's upload and delete carry their `attachment.changed` event
 * in `outbox` (the same insert / update). Collection `attachments`.
 */
export interface AttachmentDoc extends RecordFields<Date> {
  _id: string;
  name: string;
  type: AttachmentType;
  status: (typeof ATTACHMENT_STATUSES)[number];
  errorDetails: string | null;
  size: number;
  sha256: string | null;
  contentType: string;
  blobId: string | null;
  account: { id: string | null; name: string | null } | null;
  testOrderForm: { id: string | null } | null;
  /** the requisition's physician when attached to a requisition (data scope, like the requisition's) */
  physician: { id: string | null } | null;
  /** generated TRFs: the submission they render (`trf-<requisitionId>-<submissionKey>` is their _id) */
  submissionKey: string | null;
  testOrder: { id: string | null } | null;
  attachedBy: { id: string | null; name: string | null } | null;
  processedOn: Date | null;
  /** pending events (uploads and deletes by users; see docs/events.md "attachment") */
  outbox?: OutboxEntry[];
}

export const attachmentSchema = auditedSchema(
  {
    name: { type: String, required: true },
    type: { type: String, enum: ALL_ATTACHMENT_TYPES, required: true },
    status: { type: String, enum: ATTACHMENT_STATUSES, default: 'UPLOADED' },
    errorDetails: str,
    size: { type: Number, default: 0 },
    sha256: str,
    contentType: { type: String, default: 'application/octet-stream' },
    blobId: str,
    account: { type: idName(), default: null },
    testOrderForm: { type: sub({ id: str }), default: null },
    physician: { type: sub({ id: str }), default: null },
    submissionKey: str,
    testOrder: { type: sub({ id: str }), default: null },
    attachedBy: { type: idName(), default: null },
    processedOn: { type: Date, default: null },
    outbox: outboxField(),
  },
  { collection: 'attachments' },
);

// Attachment Box list: default sort updatedOn DESC
attachmentSchema.index({ updatedOn: -1 });
// the list's newest-first pages once it is large: read in index order (@onco/platform ordered-indexes.ts)
declareOrderedIndex('attachments', { updatedOn: -1, _id: -1 });
// Attachment Box list: type in(...) filter and attachment_type_facet; upload dialog's type in(list)
attachmentSchema.index({ type: 1 });
// Attachment Box list: status in(...) filter and attachment_status_facet
attachmentSchema.index({ status: 1 });
// Attachment Box list: accountName in(...) filter and account_facet
attachmentSchema.index({ 'account.name': 1 });
// upload dialog: accountId in(...) filter, and the data scope
attachmentSchema.index({ 'account.id': 1 });
// a requisition's attachments (order summary, print needs its TRF attachment)
attachmentSchema.index({ 'testOrderForm.id': 1 });
// data scope: a requisition attachment is visible to the users of the requisition's physician
attachmentSchema.index({ 'physician.id': 1 });
// data scope: one's own uploads
attachmentSchema.index({ 'attachedBy.id': 1 });
// Attachment Box list: createdOn between(start, end) filter
attachmentSchema.index({ createdOn: -1 });

export function attachmentModel(conn: Connection): Model<AttachmentDoc> {
  return (
    (conn.models.Attachment as Model<AttachmentDoc>) ??
    conn.model<AttachmentDoc>('Attachment', attachmentSchema)
  );
}

/** The requisition's `attachments` entry for an attachment record (spec 1 section 3). */
export function attachmentRef(
  doc: Pick<AttachmentDoc, '_id' | 'name' | 'type' | 'size' | 'contentType' | 'createdOn'>,
) {
  return {
    id: doc._id,
    name: doc.name,
    type: doc.type,
    size: doc.size,
    contentType: doc.contentType,
    createdOn: doc.createdOn,
  };
}

type AttachmentRefSource = Pick<
  AttachmentDoc,
  '_id' | 'name' | 'type' | 'size' | 'contentType' | 'createdOn'
>;

/**
 * Add an attachment to its requisition's `attachments` list: one `$push` whose filter says the requisition is
 * not deleted and does not list the id yet, so of concurrent links of one attachment exactly one adds it, and
 * concurrent links of different attachments all land. Idempotent; true when the attachment is listed
 * afterwards. `version` is not bumped: the list is server-owned (uploads, deletes and the TRF worker write it; a
 * draft save never overwrites it).
 */
export async function linkAttachment(
  Requisition: Model<RequisitionDoc>,
  requisitionId: string,
  doc: AttachmentRefSource,
  by: string | null,
): Promise<boolean> {
  const res = await Requisition.updateOne(
    { _id: requisitionId, deleted: { $ne: true }, 'attachments.id': { $ne: doc._id } },
    { $push: { attachments: attachmentRef(doc) }, $set: { updatedOn: new Date(), updatedBy: by } },
  ).exec();
  if (res.matchedCount > 0) return true;
  // nothing pushed: listed already (true), or the requisition is deleted or gone (false)
  return Boolean(
    await Requisition.exists({ _id: requisitionId, deleted: { $ne: true }, 'attachments.id': doc._id }),
  );
}

/** Remove an attachment from its requisition's list (one `$pull` by the attachment's id). */
export async function unlinkAttachment(
  Requisition: Model<RequisitionDoc>,
  requisitionId: string,
  attachmentId: string,
  by: string | null,
): Promise<void> {
  await Requisition.updateOne(
    { _id: requisitionId, 'attachments.id': attachmentId },
    { $pull: { attachments: { id: attachmentId } }, $set: { updatedOn: new Date(), updatedBy: by } },
  ).exec();
}
