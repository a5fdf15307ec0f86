import { conflict, badRequest, type SessionUser } from '@onco/platform';
import { mergeTrfProblem } from '@onco/domain';
import { withOutbox } from '@onco/events';
import type { RequisitionDoc } from '../models';
import type { RequisitionDeps } from './context';
import { getRequisition, conditional, requisitionChangedEvent } from './shared';

/**
 * Merge (POST /merge?sourceTrfId&targetTrfId, no samples selected): the duplicate (source) form's
 * attachments and LIMS projects move to the primary (target) form, and the source becomes INVALID with a
 * comment naming the target. Both must be submitted, of the same patient, without a cancelled test.
 * Repeating a merge that already happened changes nothing.
 */
export async function mergeRequisitions(
  deps: RequisitionDeps,
  user: SessionUser,
  sourceId: string,
  targetId: string,
): Promise<RequisitionDoc> {
  if (sourceId === targetId) throw badRequest('Choose two different requisitions to merge.');
  const [source, target] = [
    await getRequisition(deps, user, sourceId),
    await getRequisition(deps, user, targetId),
  ];
  const alreadyMerged =
    source.status === 'INVALID' && source.comment?.includes(target.testRequisitionId ?? '-');
  if (alreadyMerged) return target;
  for (const d of [source, target]) {
    const problem = mergeTrfProblem({ ...d, testStatuses: d.testOrders.map((t) => t.status) });
    if (problem) throw conflict(problem);
  }
  if ((source.patient?.id ?? null) !== (target.patient?.id ?? null)) {
    throw conflict('Only requisitions of the same patient can be merged.');
  }
  const now = new Date();
  const patientId = target.patient?.id ?? null;
  // The target gains the source's attachments it lacks and its LIMS projects: pushed (the list is server-owned
  // and may grow meanwhile, so it is never written whole), conditional on the target as checked. Done before
  // the source is invalidated and idempotent, so a merge cut short is completed by repeating it.
  const merged = await conditional(false, async () => {
    const t = await getRequisition(deps, user, targetId);
    if (t.status !== 'SUBMITTED') throw conflict('Only submitted requisitions can be merged.');
    if ((t.patient?.id ?? null) !== patientId)
      throw conflict('Only requisitions of the same patient can be merged.');
    const listed = new Set(t.attachments.map((a) => a.id));
    const missing = source.attachments.filter((a) => !listed.has(a.id) && a.type !== 'TRF');
    return deps.models.Requisition.findOneAndUpdate(
      {
        _id: targetId,
        version: t.version,
        status: 'SUBMITTED',
        deleted: { $ne: true },
        'testOrders.status': { $ne: 'CANCELLED' },
        'attachments.id': { $nin: missing.map((a) => a.id) },
      },
      {
        $push: { attachments: { $each: missing } },
        $addToSet: { limsProjectIds: { $each: source.limsProjectIds ?? [] } },
        $set: { updatedOn: now, updatedBy: user.id },
        $inc: { version: 1 },
      },
      { returnDocument: 'after' },
    )
      .lean<RequisitionDoc>()
      .exec();
  });
  // the source becomes INVALID with its requisition-changed event, at the version its event names
  const comment = `Merged into ${target.testRequisitionId}`;
  await conditional(false, async () => {
    const s = await getRequisition(deps, user, sourceId);
    if (s.status === 'INVALID' && s.comment === comment) return true;
    if (s.status !== 'SUBMITTED') throw conflict('Only submitted requisitions can be merged.');
    const $set = {
      status: 'INVALID' as const,
      comment,
      mergedInto: { id: target._id, testRequisitionId: target.testRequisitionId ?? null },
      updatedOn: now,
      updatedBy: user.id,
    };
    const event = requisitionChangedEvent(s, { ...s, ...$set }, ['invalidated'], user, now);
    const update = { $set, $inc: { version: 1 } };
    const res = await deps.models.Requisition.updateOne(
      {
        _id: sourceId,
        version: s.version,
        status: 'SUBMITTED',
        deleted: { $ne: true },
        'testOrders.status': { $ne: 'CANCELLED' },
      },
      event ? withOutbox(update, event) : update,
    ).exec();
    if (!res.matchedCount) return null;
    if (event) deps.ctx.nudgeOutbox();
    return true;
  });
  return merged;
}
