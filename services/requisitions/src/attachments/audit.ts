/**
 * How an attachment's upload or delete reads in the audit trail (docs/audit.md "Changes"): the attachment, the
 * patient of the requisition it is attached to (none for an Attachment Box file) and its account; `create`, or
 * `delete` when it becomes deleted. The attachment's write (with its `attachment.changed` event) and its entry
 * commit in one transaction (platform's AuditTrail.create / update).
 */
import type { ChangeDescription } from '@onco/platform';
import type { AttachmentDoc } from '../models/attachment';

export type AttachmentAuditDoc = AttachmentDoc & Record<string, unknown>;

/** The change description of an attachment whose requisition's patient is `patientId` (null: none). */
export const attachmentChange = (
  patientId: string | null | undefined,
): ChangeDescription<AttachmentAuditDoc> => ({
  type: 'attachment',
  subject: (doc) => ({ id: doc._id, patientId: patientId ?? null, accountIds: [doc.account?.id] }),
  action: (before, after) => (!before ? 'create' : after.deleted && !before.deleted ? 'delete' : 'update'),
  // a create's own bookkeeping (updatedOn, updatedBy and version are the platform's)
  ignore: ['createdOn', 'createdBy'],
});
