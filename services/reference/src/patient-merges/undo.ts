import type { ClientSession } from 'mongoose';
import { withOutbox } from '@onco/events';
import {
  actorOf,
  conflict,
  currentActor,
  inTransaction,
  updateReadingBoth,
  type SessionUser,
} from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { referenceTrail } from '../use-cases/audit';
import { patientMergeEvent, recordPatientWrites, type PatientWrite } from './merge';
import { MSG_UNDO_TARGET_EDITED } from './rules';

/**
 * The patients as they were before the merge: the primary without the parties the merge added (conditional on
 * the versions the merge left it at: a 409 when edited since), the duplicates not merged, their billing entries
 * and defaults back. Answers each patient written, before and after (the primary first), for their audit entries.
 */
async function restorePatients(
  { Patient, PatientBilling }: ReferenceModels,
  session: ClientSession,
  merge: PatientMergeDoc,
  m: { mergeId: string; userId: string; now: Date },
) {
  const { mergeId, userId, now } = m;
  const target = await updateReadingBoth(
    session,
    Patient,
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
  );
  if (!target) throw conflict(MSG_UNDO_TARGET_EDITED);
  // the duplicates in one write, as before; read before and after it (in the transaction) for their entries
  const sourcesFilter = { _id: { $in: merge.sourceIds }, mergeId };
  const before = await Patient.find(sourcesFilter, null, { session })
    .lean<Record<string, unknown>[]>()
    .exec();
  await Patient.updateMany(
    sourcesFilter,
    {
      $set: { mergedInto: null, mergeId: null, updatedOn: now, updatedBy: userId },
      $inc: { version: 1, billingsVersion: 1 },
    },
    { session },
  ).exec();
  const after = await Patient.find({ _id: { $in: before.map((p) => String(p._id)) } }, null, { session })
    .lean<Record<string, unknown>[]>()
    .exec();
  const afterById = new Map(after.map((p) => [String(p._id), p]));
  const written: PatientWrite[] = [target];
  for (const b of before) {
    const a = afterById.get(String(b._id));
    if (a) written.push({ before: b, after: a });
  }
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
  return written;
}

/**
 * Undo a merge that may be undone (checked by the caller): one transaction gives the duplicates back their
 * records and sets the merge UNDOING with its `patient` event (`merge-undone`), conditional on the merge read;
 * one audit entry a patient written (docs/audit.md "Changes"), in the same transaction.
 */
export async function undoMerge(
  models: ReferenceModels,
  user: SessionUser,
  mergeId: string,
  merge: PatientMergeDoc,
  t: PatientDoc,
): Promise<PatientMergeDoc> {
  const actor = actorOf(user);
  const auditActor = currentActor();
  const undone = await inTransaction(models.Patient.db, async (session: ClientSession) => {
    const now = new Date();
    const written = await restorePatients(models, session, merge, { mergeId, userId: user.id, now });
    const billings = merge.billings ?? [];
    const moved = new Set(billings.length ? [merge.targetId, ...billings.map((b) => b.fromPatientId)] : []);
    await recordPatientWrites(models, session, written, moved, auditActor);
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
  referenceTrail(models.Patient.db).recorded();
  return undone;
}
