import { isEventOf, runConsumer, withPrefix, type AnyEvent } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { ReferenceModels } from '../models';
import { msgUndoNewRequisition } from '../patient-merges';
import { PATIENT_CHANGE, referenceTrail } from '../use-cases/audit';

/** The reference service's consumer group for the requisition events (prefixed like the topics). */
export const REFERENCE_PATIENT_GROUP = 'reference.patient-parties';

/** What a submitted (or re-assigned) requisition tells the patient directory. */
export interface PatientParties {
  patientId: string;
  accountId?: string | null;
  physicianId?: string | null;
  hospitalLocationId?: string | null;
}

/**
 * A requisition submitted for a patient, or edited to name another account, physician or location
 * (`parties-changed`), or moved to another patient by a merge (`patient-changed`), adds them to the patient's
 * accountIds, physicianIds and hospitalLocationIds: the patients list's data scope and its Account, Provider and
 * Hospital filters. `$addToSet` only: a redelivery or an older event
 * changes nothing, and no party is ever removed (a patient stays visible to an account that ordered for them;
 * decision, docs/decisions.md "Patients"). The patient's updatedOn and version are not touched: no user edited it.
 * The addition commits with its audit entry (a `patient` `update` by `system` naming the lists that grew) in one
 * transaction (docs/audit.md "Changes"); the filter matches only a patient that lacks one of them, so an event that
 * adds nothing (a redelivery) writes and records nothing.
 */
export async function applyPatientParties(models: ReferenceModels, p: PatientParties): Promise<boolean> {
  const add: Record<string, string> = {};
  if (p.accountId) add.accountIds = p.accountId;
  if (p.physicianId) add.physicianIds = p.physicianId;
  if (p.hospitalLocationId) add.hospitalLocationIds = p.hospitalLocationId;
  if (!p.patientId || Object.keys(add).length === 0) return false;
  const lacking = Object.entries(add).map(([field, id]) => ({ [field]: { $ne: id } }));
  const after = await referenceTrail(models.Patient.db).update(
    models.Patient,
    { _id: p.patientId, $or: lacking },
    { $addToSet: add },
    PATIENT_CHANGE,
  );
  return after !== null;
}

/**
 * A requisition attached to a patient that is the primary of a merge, after that merge (a new submission, or an
 * edit that moved it there), blocks the merge's undo: the undo would leave it with the wrong patient. Returns
 * whether a merge was blocked.
 */
export async function blockMergeUndo(
  models: ReferenceModels,
  patientId: string,
  since: Date,
  requisitionId: string,
  reason: string,
): Promise<boolean> {
  const res = await models.PatientMerge.updateMany(
    {
      targetId: patientId,
      status: { $in: ['RUNNING', 'DONE'] },
      createdOn: { $lt: since },
      movedRequisitionIds: { $ne: requisitionId },
      undoBlockedReason: null,
    },
    { $set: { undoBlockedReason: reason } },
  ).exec();
  return res.modifiedCount > 0;
}

/**
 * Record that the requisition belongs to the patient (patient_requisitions). Returns whether that is new: the
 * requisition was not known, or known for another patient.
 */
async function attach(models: ReferenceModels, requisitionId: string, patientId: string): Promise<boolean> {
  const before = await models.PatientRequisition.findOneAndUpdate(
    { _id: requisitionId },
    { $set: { patientId, updatedOn: new Date() } },
    { upsert: true, returnDocument: 'before' },
  )
    .lean()
    .exec()
    .catch(async (err: unknown) => {
      // two first records at once: the other inserted it; set it again
      if ((err as { code?: unknown })?.code !== 11000) throw err;
      return models.PatientRequisition.findOneAndUpdate(
        { _id: requisitionId },
        { $set: { patientId, updatedOn: new Date() } },
        { returnDocument: 'before' },
      )
        .lean()
        .exec();
    });
  return before?.patientId !== patientId;
}

/**
 * What a requisition event tells the patient directory: the parties (above), which patient the requisition
 * belongs to (patient_requisitions: the merge preview's count), and a merge's undo blocked when a requisition is
 * newly attached to its primary by a submission or an edit (not by the merge itself).
 */
export async function handlePatientPartiesEvent(models: ReferenceModels, event: AnyEvent): Promise<void> {
  if (isEventOf(event, 'requisition-submitted')) {
    const d = event.data;
    await applyPatientParties(models, d);
    if (await attach(models, d.requisitionId, d.patientId))
      await blockMergeUndo(
        models,
        d.patientId,
        new Date(d.submittedOn),
        d.requisitionId,
        msgUndoNewRequisition(d.testRequisitionId),
      );
    return;
  }
  if (!isEventOf(event, 'requisition-changed')) return;
  const d = event.data;
  if (!d.changes.includes('patient-changed') && !d.changes.includes('parties-changed')) return;
  await applyPatientParties(models, d);
  const attached = await attach(models, d.requisitionId, d.patientId);
  if (attached && !d.patientMerge)
    await blockMergeUndo(
      models,
      d.patientId,
      new Date(d.changedOn),
      d.requisitionId,
      msgUndoNewRequisition(d.testRequisitionId),
    );
}

export async function startPatientPartiesConsumer(ctx: PlatformContext, models: ReferenceModels) {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(REFERENCE_PATIENT_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-submitted', 'requisition-changed'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: (event: AnyEvent) => handlePatientPartiesEvent(models, event),
  });
  return { stop: () => consumer.stop() };
}
