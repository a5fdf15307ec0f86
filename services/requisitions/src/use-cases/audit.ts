/**
 * How a change of a requisition reads in the audit trail (docs/audit.md "Changes"): the requisition, its patient
 * and its account; `create`, `update`, or `delete` when it becomes deleted. The write and its entry commit in one
 * transaction (platform's AuditTrail.update / create), with the requisition's own events in the same update.
 */
import type { ChangeDescription } from '@onco/platform';
import type { RequisitionDoc } from '../models';

export const REQUISITION_CHANGE: ChangeDescription<RequisitionDoc & Record<string, unknown>> = {
  type: 'requisition',
  subject: (doc) => ({ id: doc._id, patientId: doc.patient?.id ?? null, accountIds: [doc.account?.id] }),
  action: (before, after) => (!before ? 'create' : after.deleted && !before.deleted ? 'delete' : 'update'),
  // a create's own bookkeeping (updatedOn, updatedBy and version are the platform's)
  ignore: ['createdOn', 'createdBy'],
};
