import type { EventEnvelope } from '@onco/events';
import { removesDueDates } from '@onco/domain';
import type { LabModels, LabRequisitionDoc } from '../models';

/** The lab's consumer group for requisition-changed (prefixed like the topics). */
export const LAB_REQUISITION_CHANGED_GROUP = 'lab.requisition-changed';

/** The per-document write lock (ctx.locks.run): FerretDB v1 updates are not atomic. */
export type Lock = <T>(collection: string, id: string, fn: () => Promise<T>) => Promise<T>;

/**
 * Record a requisition's state from a requisition-changed event in `lab_requisitions`, unless a newer (or the
 * same) version is already recorded: a redelivery or an older event changes nothing. Returns whether it wrote.
 */
export async function recordRequisitionChange(
  models: LabModels,
  lock: Lock,
  event: EventEnvelope<'requisition-changed'>,
): Promise<boolean> {
  const d = event.data;
  return lock('lab_requisitions', d.requisitionId, async () => {
    const current = await models.LabRequisition.findById(d.requisitionId).lean<LabRequisitionDoc>().exec();
    if (current && current.version >= d.requisitionVersion) return false;
    const state: Omit<LabRequisitionDoc, '_id'> = {
      version: d.requisitionVersion,
      status: d.status,
      deleted: d.deleted,
      clinicalReviewStatus: d.clinicalReviewStatus,
      account: { id: d.accountId, name: d.accountName },
      physician: { id: d.physicianId, name: d.physicianName },
      hospitalLocation: d.hospitalLocationId
        ? { id: d.hospitalLocationId, name: d.hospitalLocationName }
        : null,
      patient: { id: d.patientId, name: d.patientName, userId: d.patientNumber },
      changedOn: new Date(d.changedOn),
      changedBy: d.changedBy.id,
    };
    await models.LabRequisition.replaceOne({ _id: d.requisitionId }, state, { upsert: true }).exec();
    return true;
  });
}

/**
 * Apply a requisition's recorded state to each of its test orders that has not seen that version yet: the
 * snapshot the lists show (review status, account, physician, location and patient with their names), deleted
 * with a deleted requisition (spec 1 section 4: Delete marks the form and its tests deleted), and no due date
 * while the clinical review is DISQUALIFIED (spec 1 section 4, `removesDueDates`). Each test order is written
 * under its own lock with a version guard, so running this twice, or from both consumers at once, applies a
 * state once. No test-status event: a test's status does not change (see docs/events.md). Returns the ids of
 * the test orders it changed.
 */
export async function applyRequisitionState(
  models: LabModels,
  lock: Lock,
  requisitionId: string,
): Promise<string[]> {
  const state = await models.LabRequisition.findById(requisitionId).lean<LabRequisitionDoc>().exec();
  if (!state) return [];
  const ids = (
    await models.TestOrder.find({ 'testOrderForm.id': requisitionId }, { _id: 1 })
      .lean<{ _id: string }[]>()
      .exec()
  ).map((t) => t._id);
  const changed: string[] = [];
  for (const id of ids) {
    const done = await lock('test_orders', id, async () => {
      const order = await models.TestOrder.findById(id).lean().exec();
      if (!order) return false;
      if ((order.testOrderForm?.requisitionVersion ?? -1) >= state.version) return false;
      const $set: Record<string, unknown> = {
        'testOrderForm.requisitionVersion': state.version,
        'testOrderForm.reviewStatus': state.clinicalReviewStatus,
        'testOrderForm.account': state.account,
        'testOrderForm.physician': state.physician,
        'testOrderForm.hospitalLocation': state.hospitalLocation,
        'testOrderForm.patient': state.patient,
        updatedOn: state.changedOn,
        updatedBy: state.changedBy,
      };
      if (state.deleted) $set.deleted = true;
      if (removesDueDates(state)) $set.dueOn = null;
      await models.TestOrder.updateOne({ _id: id }, { $set, $inc: { version: 1 } }).exec();
      return true;
    });
    if (done) changed.push(id);
  }
  return changed;
}
