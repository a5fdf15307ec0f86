import type { ClientSession } from 'mongoose';
import { withOutbox } from '@onco/events';
import { actorOf, conflict, inTransaction, type SessionUser } from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { patientMergeEvent } from './merge';
import { MSG_UNDO_TARGET_EDITED } from './rules';

/**
 * The patients as they were before the merge: the primary without the parties the merge added (conditional on
 * the versions the merge left it at: a 409 when edited since), the duplicates not merged, their billing entries
 * and defaults back.
 */
async function restorePatients(
  { Patient, PatientBilling }: ReferenceModels,
  session: ClientSession,
  merge: PatientMergeDoc,
  m: { mergeId: string; userId: string; now: Date },
) {
  const { mergeId, userId, now } = m;
  const res = await Patient.updateOne(
    { _id: merge.targetId, version: merge.targetVersion, billingsVersion: merge.targetBillingsVersion },
    {
      $pull: {
        accountIds: { $in: merge.addedParties?.accountIds ?? [] },
        physicianIds: { $in: merge.addedParties?.physicianIds ?? [] },
        hospitalLocationIds: { $in: merge.addedParties?.hospitalLocationIds ?? [] },
      },
      $set: { updatedOn: now, updatedBy: userId },
      $inc: { version: 1, billingsVersion: 1 },
    },
    { session },
  ).exec();
  if (res.matchedCount !== 1) throw conflict(MSG_UNDO_TARGET_EDITED);
  await Patient.updateMany(
    { _id: { $in: merge.sourceIds }, mergeId },
    {
      $set: { mergedInto: null, mergeId: null, updatedOn: now, updatedBy: userId },
      $inc: { version: 1, billingsVersion: 1 },
    },
    { session },
  ).exec();
  for (const b of merge.billings ?? []) {
    await PatientBilling.updateOne(
      { _id: b.id, patientId: merge.targetId },
      {
        $set: { patientId: b.fromPatientId, isDefault: b.wasDefault, updatedOn: now, updatedBy: userId },
        $inc: { version: 1 },
      },
      { session },
    ).exec();
  }
}

/**
 * Undo a merge that may be undone (checked by the caller): one transaction gives the duplicates back their
 * records and sets the merge UNDOING with its `patient` event (`merge-undone`), conditional on the merge read.
 */
export async function undoMerge(
  models: ReferenceModels,
  user: SessionUser,
  mergeId: string,
  merge: PatientMergeDoc,
  t: PatientDoc,
): Promise<PatientMergeDoc> {
  const actor = actorOf(user);
  return inTransaction(models.Patient.db, async (session: ClientSession) => {
    const now = new Date();
    await restorePatients(models, session, merge, { mergeId, userId: user.id, now });
    const event = patientMergeEvent(merge.targetId, t, 'merge-undone', {
      mergeId,
      sourceIds: merge.sourceIds,
      actor,
      now,
    });
    const doc = await models.PatientMerge.findOneAndUpdate(
      { _id: mergeId, status: 'DONE', version: merge.version, undoBlockedReason: null },
      withOutbox(
        {
          $set: {
            status: 'UNDOING',
            undoneBy: user.id,
            undoneByName: actor.name,
            undoneOn: now,
            updatedOn: now,
            updatedBy: user.id,
          },
          $inc: { version: 1 },
        },
        event,
      ),
      { session, returnDocument: 'after', projection: { outbox: 0 } },
    )
      .lean()
      .exec();
    if (!doc) throw conflict('The merge changed in the meantime; reload and try again.');
    return doc as PatientMergeDoc;
  });
}
