import { isDulPatientNumber } from '@onco/domain';
import { badRequest, can, notFound, type SessionUser } from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { PATIENT_EDITORS, patientScope } from '../routes/patients';
import { and } from '../routes/shared';
import {
  MAX_MERGE_SOURCES,
  mergeConflicts,
  MSG_MERGE_NO_SOURCE,
  MSG_MERGE_TARGET_IS_SOURCE,
  msgMergeAlreadyMerged,
  msgMergeDul,
  msgMergeInProgress,
  msgMergeNotEditable,
  msgMergeSourceTwice,
  msgMergeTargetMerged,
  msgMergeUnknown,
  numberOf,
} from './rules';

/** The ids of a merge request: a primary, at least one duplicate, at most MAX_MERGE_SOURCES, none twice (400). */
function checkIds(sourceIds: string[], targetId: string) {
  if (!targetId)
    throw badRequest('Choose the primary patient (targetPatient.id).', { field: 'targetPatient' });
  if (sourceIds.length === 0) throw badRequest(MSG_MERGE_NO_SOURCE, { field: 'sourceId' });
  if (sourceIds.length > MAX_MERGE_SOURCES)
    throw badRequest(`At most ${MAX_MERGE_SOURCES} patients can be merged at once.`, { field: 'sourceId' });
  const seen = new Set<string>();
  for (const id of sourceIds) {
    if (seen.has(id)) throw badRequest(msgMergeSourceTwice(id), { field: 'sourceId' });
    seen.add(id);
  }
  if (seen.has(targetId)) throw badRequest(MSG_MERGE_TARGET_IS_SOURCE, { field: 'targetPatient' });
}

/**
 * The merge's patients, checked (nothing written): the ids (400), each in the user's scope (404), none merged
 * already, every duplicate editable and without a DUL number, none part of a merge in progress (400).
 */
export async function checkMerge(
  models: ReferenceModels,
  user: SessionUser,
  sourceIds: string[],
  targetId: string,
) {
  checkIds(sourceIds, targetId);
  const all = [targetId, ...sourceIds];
  const docs = (await models.Patient.find(
    and({ _id: { $in: all }, deleted: { $ne: true } }, patientScope(user)),
  )
    .lean()
    .exec()) as PatientDoc[];
  const byId = new Map(docs.map((d) => [d._id, d]));
  for (const id of all) if (!byId.has(id)) throw notFound(msgMergeUnknown(id));
  const target = byId.get(targetId)!;
  const sources = sourceIds.map((id) => byId.get(id)!);
  if (target.mergedInto) throw badRequest(msgMergeTargetMerged(numberOf(target)), { field: 'targetPatient' });
  for (const s of sources) {
    if (s.mergedInto) throw badRequest(msgMergeAlreadyMerged(numberOf(s)), { field: 'sourceId' });
    if (isDulPatientNumber(s.userId)) throw badRequest(msgMergeDul(numberOf(s)), { field: 'sourceId' });
  }
  // every duplicate must be editable by the user (the list's canEdit: spec 2 section 6 "Patients")
  if (!PATIENT_EDITORS.some((p) => can(user, p)))
    throw badRequest(msgMergeNotEditable(numberOf(sources[0])), { field: 'sourceId' });
  const busy = (await models.PatientMerge.findOne(
    {
      status: { $in: ['RUNNING', 'UNDOING'] },
      $or: [{ sourceIds: { $in: all } }, { targetId: { $in: all } }],
    },
    { sourceIds: 1, targetId: 1 },
  )
    .lean()
    .exec()) as Pick<PatientMergeDoc, 'sourceIds' | 'targetId'> | null;
  if (busy) {
    const involved = [busy.targetId, ...busy.sourceIds].find((id) => byId.has(id))!;
    throw badRequest(msgMergeInProgress(numberOf(byId.get(involved)!)), { field: 'sourceId' });
  }
  return { target, sources };
}

/** The submitted requisitions of the patients as this service knows them (patient_requisitions). */
export function requisitionCount(models: ReferenceModels, ids: string[]): Promise<number> {
  return models.PatientRequisition.countDocuments({ patientId: { $in: ids } }).exec();
}

/** What a merge would do: the conflicting fields, the requisitions and billing entries that would move. */
export async function previewMerge(
  models: ReferenceModels,
  user: SessionUser,
  sourceIds: string[],
  targetId: string,
) {
  const { target, sources } = await checkMerge(models, user, sourceIds, targetId);
  const [requisitions, billingEntries] = await Promise.all([
    requisitionCount(models, sourceIds),
    models.PatientBilling.countDocuments({
      patientId: { $in: sourceIds },
      deleted: { $ne: true },
    }).exec(),
  ]);
  return {
    target,
    sources,
    conflicts: mergeConflicts(target, sources),
    moves: { requisitions, billingEntries },
  };
}
