import { isEventOf, runConsumer, withPrefix, type AnyEvent } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { ReferenceModels } from '../models';

/** The reference service's consumer group that follows its patient merges (prefixed like the topics). */
export const REFERENCE_PATIENT_MERGES_GROUP = 'reference.patient-merges';
/** Its group for the progress (requisition-changed with `patientMerge`). */
export const REFERENCE_PATIENT_MERGE_PROGRESS_GROUP = 'reference.patient-merge-progress';

/**
 * A patient merge's progress and end, from the requisitions service's events (docs/decisions.md "Patient merge"):
 * - requisition-changed with `patientMerge` (change `patient-changed`): a merge's requisition moved to the target
 *   (`$addToSet` to movedRequisitionIds while RUNNING or DONE; the run's count becomes the merge's total while
 *   RUNNING), or moved back by its undo (`$pull` while UNDOING: the count goes down);
 * - patient-requisitions: the run is over: RUNNING → DONE with the final total and finishedOn, or
 *   UNDOING → UNDONE.
 * Every write is conditional on the status and idempotent (a set, not a counter), so a redelivery, or events of
 * the two topics consumed in either order, end in the same state.
 */
export async function handlePatientMergeEvent(models: ReferenceModels, event: AnyEvent): Promise<void> {
  const { PatientMerge } = models;
  if (isEventOf(event, 'requisition-changed')) {
    const pm = event.data.patientMerge;
    if (!pm || !event.data.changes.includes('patient-changed')) return;
    const id = event.data.requisitionId;
    if (pm.direction === 'merge') {
      const running = await PatientMerge.updateOne(
        { _id: pm.mergeId, status: 'RUNNING' },
        { $addToSet: { movedRequisitionIds: id }, $set: { total: pm.total } },
      ).exec();
      if (!running.matchedCount)
        await PatientMerge.updateOne(
          { _id: pm.mergeId, status: 'DONE' },
          { $addToSet: { movedRequisitionIds: id } },
        ).exec();
    } else {
      await PatientMerge.updateOne(
        { _id: pm.mergeId, status: 'UNDOING' },
        { $pull: { movedRequisitionIds: id } },
      ).exec();
    }
    return;
  }
  if (isEventOf(event, 'patient-requisitions')) {
    const d = event.data;
    const on = new Date(d.completedOn);
    if (d.direction === 'merge') {
      await PatientMerge.updateOne(
        { _id: d.mergeId, status: 'RUNNING' },
        {
          $set: { status: 'DONE', total: d.total, finishedOn: on, updatedOn: new Date() },
          $inc: { version: 1 },
        },
      ).exec();
    } else {
      await PatientMerge.updateOne(
        { _id: d.mergeId, status: 'UNDOING' },
        {
          $set: { status: 'UNDONE', undoFinishedOn: on, movedRequisitionIds: [], updatedOn: new Date() },
          $inc: { version: 1 },
        },
      ).exec();
    }
  }
}

/**
 * Two groups, so a merge's end is not queued behind its own progress events: `reference.patient-merges` takes
 * `patient-requisitions` (DONE, UNDONE: a handful of events), `reference.patient-merge-progress` the
 * requisition-changed events (one per requisition moved; partitions in parallel, the writes being set-based).
 */
export async function startPatientMergesConsumer(ctx: PlatformContext, models: ReferenceModels) {
  const common = {
    kafka: ctx.kafka,
    db: ctx.mongo,
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: (event: AnyEvent) => handlePatientMergeEvent(models, event),
  };
  const ends = await runConsumer({
    ...common,
    groupId: withPrefix(REFERENCE_PATIENT_MERGES_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['patient-requisitions'],
  });
  const progress = await runConsumer({
    ...common,
    groupId: withPrefix(REFERENCE_PATIENT_MERGE_PROGRESS_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-changed'],
    partitionsConsumedConcurrently: 3,
  });
  return { stop: async () => void (await Promise.all([ends.stop(), progress.stop()])) };
}
