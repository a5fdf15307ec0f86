import type { Connection, Model } from 'mongoose';
import { auditedSchema } from '@onco/platform';
import { ALL_ATTACHMENT_TYPES, ATTACHMENT_STATUSES, type AttachmentType } from '@onco/domain';
import { idName, str, sub } from './common';
import type { RequisitionDoc } from './requisition';

/**
 * An uploaded file (spec 1 section 3 "Attachment", spec 3 section 3 and 4.2): its metadata here, its bytes in
 * the blob store under `blobId`. Status UPLOADED -> PROCESSED | ERROR (errorDetails). Collection `attachments`.
 */
export interface AttachmentDoc {
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
  createdOn: Date;
  createdBy: string | null;
  updatedOn: Date;
  updatedBy: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
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
  },
  { collection: 'attachments' },
);

// Attachment Box list: default sort updatedOn DESC
attachmentSchema.index({ updatedOn: -1 });
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

type Lock = <T>(collection: string, id: string, fn: () => Promise<T>) => Promise<T>;
type AttachmentRefSource = Pick<
  AttachmentDoc,
  '_id' | 'name' | 'type' | 'size' | 'contentType' | 'createdOn'
>;

/**
 * Add an attachment to its requisition's `attachments` list, under the requisition's write lock
 * (ctx.locks.run; FerretDB v1 applies an update as a read then a write, so a `$push` racing another writer of the
 * document could be lost). Idempotent: the requisition is read (its deleted flag and list only), and `$push`ed to
 * only when it is not deleted and the id is not listed yet. True when the attachment is listed afterwards.
 * `version` is not bumped: the list is server-owned (uploads, deletes and the TRF worker write it; a draft save
 * must never overwrite it).
 *
 * Both the read and the write filter on `{_id}` alone: that is the one filter FerretDB's SQLite backend answers
 * from an index; a conditional filter (`{_id, deleted, $nor: [...]}`) made the write scan every requisition.
 */
export async function linkAttachment(
  Requisition: Model<RequisitionDoc>,
  lock: Lock,
  requisitionId: string,
  doc: AttachmentRefSource,
  by: string | null,
): Promise<boolean> {
  return lock('test_order_forms', requisitionId, async () => {
    const trf = await Requisition.findOne({ _id: requisitionId }, { deleted: 1, attachments: 1 })
      .lean<Pick<RequisitionDoc, '_id' | 'deleted' | 'attachments'>>()
      .exec();
    if (!trf || trf.deleted) return false;
    if ((trf.attachments ?? []).some((a) => a.id === doc._id)) return true;
    const res = await Requisition.updateOne(
      { _id: requisitionId },
      { $push: { attachments: attachmentRef(doc) }, $set: { updatedOn: new Date(), updatedBy: by } },
    ).exec();
    return res.matchedCount > 0;
  });
}

/** Remove an attachment from its requisition's list (under the requisition's write lock). */
export async function unlinkAttachment(
  Requisition: Model<RequisitionDoc>,
  lock: Lock,
  requisitionId: string,
  attachmentId: string,
  by: string | null,
): Promise<void> {
  await lock('test_order_forms', requisitionId, async () => {
    const trf = await Requisition.findOne({ _id: requisitionId }, { attachments: 1 })
      .lean<Pick<RequisitionDoc, '_id' | 'attachments'>>()
      .exec();
    if (!trf || !(trf.attachments ?? []).some((a) => a.id === attachmentId)) return;
    await Requisition.updateOne(
      { _id: requisitionId },
      {
        $set: {
          attachments: trf.attachments.filter((a) => a.id !== attachmentId),
          updatedOn: new Date(),
          updatedBy: by,
        },
      },
    ).exec();
  });
}
