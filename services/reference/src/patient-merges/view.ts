import type { SessionUser } from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { patientScope } from '../routes/patients';
import { and } from '../routes/shared';
import {
  MSG_UNDO_BILLING_CHANGED,
  MSG_UNDO_NOT_DONE,
  MSG_UNDO_TARGET_EDITED,
  type PatientMergeView,
} from './rules';

/** Whether the patient is in the user's scope (and not deleted). */
export async function patientInScope(
  models: ReferenceModels,
  user: SessionUser,
  patientId: string,
): Promise<boolean> {
  return Boolean(
    await models.Patient.exists(and({ _id: patientId, deleted: { $ne: true } }, patientScope(user))),
  );
}

/** What a merge's view and its undo need of the primary patient: its versions, number and names. */
export async function targetState(models: ReferenceModels, id: string) {
  return (await models.Patient.findById(id, {
    version: 1,
    billingsVersion: 1,
    userId: 1,
    name: 1,
    firstName: 1,
    middleName: 1,
    lastName: 1,
    mergedInto: 1,
  })
    .lean()
    .exec()) as PatientDoc | null;
}

/** Why the merge cannot be undone now, or null. */
export function blockedReason(merge: PatientMergeDoc, target: PatientDoc | null): string | null {
  if (merge.status !== 'DONE') return MSG_UNDO_NOT_DONE(merge.status);
  if (merge.undoBlockedReason) return merge.undoBlockedReason;
  if (!target || target.mergedInto) return 'The primary patient has since been merged into another patient.';
  if (target.version !== merge.targetVersion) return MSG_UNDO_TARGET_EDITED;
  if ((target.billingsVersion ?? 0) !== (merge.targetBillingsVersion ?? 0)) return MSG_UNDO_BILLING_CHANGED;
  return null;
}

/** A merge as replies show it, with whether it may be undone now (the primary's state given or read). */
export async function presentMerge(
  models: ReferenceModels,
  merge: PatientMergeDoc,
  target?: PatientDoc | null,
): Promise<PatientMergeView> {
  const t = target === undefined ? await targetState(models, merge.targetId) : target;
  const reason = blockedReason(merge, t);
  const moved =
    merge.status === 'DONE'
      ? merge.total
      : merge.status === 'UNDONE'
        ? 0
        : Math.min(merge.movedRequisitionIds?.length ?? 0, merge.total);
  return {
    id: merge._id,
    status: merge.status,
    targetId: merge.targetId,
    sourceIds: merge.sourceIds,
    sources: (merge.sources ?? []).map((s) => ({
      id: s.id,
      firstName: s.firstName,
      lastName: s.lastName,
      patientNumber: s.userId,
    })),
    total: merge.total,
    moved,
    createdBy: { id: merge.createdBy ?? '', name: merge.createdByName ?? '' },
    createdOn: merge.createdOn,
    finishedOn: merge.finishedOn ?? null,
    undoneBy: merge.undoneBy ? { id: merge.undoneBy, name: merge.undoneByName ?? '' } : null,
    undoneOn: merge.undoneOn ?? null,
    undoFinishedOn: merge.undoFinishedOn ?? null,
    undoable: reason === null,
    undoBlockedReason: reason,
  };
}
