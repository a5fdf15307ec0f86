import { auditTrailOf, conflict, badRequest, type SessionUser } from '@onco/platform';
import type { RequisitionDoc } from '../models';
import { MSG_INCORRECT_PASSWORD, MSG_ALREADY_SUBMITTED, type RequisitionDeps } from './context';
import { getRequisition, conditional } from './shared';
import { REQUISITION_CHANGE } from './audit';

/** Sign: the signer's own login password, then an approval (one per signer; a new signature replaces theirs). */
export async function signRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  password: string,
): Promise<RequisitionDoc> {
  if (!deps.verifySignature) throw new Error('no signature verifier configured');
  const doc = await getRequisition(deps, user, id);
  if (doc.status !== 'DRAFT') throw conflict(MSG_ALREADY_SUBMITTED);
  const ok = await deps.verifySignature(user.id, password);
  if (!ok) throw badRequest(MSG_INCORRECT_PASSWORD, { field: 'password' });
  return conditional(false, async () => {
    const current = await getRequisition(deps, user, id);
    if (current.status !== 'DRAFT') throw conflict(MSG_ALREADY_SUBMITTED);
    const approvals = [
      ...current.approvals.filter((a) => a.approvedBy?.id !== user.id),
      {
        approvedBy: { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() },
        createdOn: new Date(),
      },
    ];
    // the approvals list read, replaced: conditional on the version it was read at
    // with its audit entry (`update`, approvals) in one transaction (docs/audit.md)
    return auditTrailOf(deps.ctx).update(
      deps.models.Requisition,
      { _id: id, version: current.version, status: 'DRAFT', deleted: { $ne: true } },
      { $set: { approvals, updatedOn: new Date(), updatedBy: user.id }, $inc: { version: 1 } },
      REQUISITION_CHANGE,
    );
  });
}
