import type { Connection, Model } from 'mongoose';
import { auditedSchema } from '@onco/platform';
import { ALL_ATTACHMENT_TYPES, ATTACHMENT_STATUSES, type AttachmentType } from '@onco/domain';
import { idName, str, sub } from './common';

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
// Attachment Box list: createdOn between(start, end) filter
attachmentSchema.index({ createdOn: -1 });

export function attachmentModel(conn: Connection): Model<AttachmentDoc> {
  return (
    (conn.models.Attachment as Model<AttachmentDoc>) ??
    conn.model<AttachmentDoc>('Attachment', attachmentSchema)
  );
}
