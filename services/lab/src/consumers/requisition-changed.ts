import {
  isEventOf,
  runConsumer,
  withOutbox,
  withPrefix,
  type AnyEvent,
  type EventEnvelope,
} from '@onco/events';
import {
  changeInputOf,
  inTransaction,
  SYSTEM_ACTOR,
  type AuditInput,
  type ChangeDescription,
  type PlatformContext,
} from '@onco/platform';
import { removesDueDates } from '@onco/domain';
import type { LabModels, LabRequisitionDoc, SampleDoc, TestOrderDoc } from '../models';
import { markTestsMerged, testStatusEvent } from '../use-cases';
import { labAuditTrail, SAMPLE_CHANGE, TEST_ORDER_CHANGE } from '../use-cases/audit';

/** The lab's consumer group for requisition-changed (prefixed like the topics). */
export const LAB_REQUISITION_CHANGED_GROUP = 'lab.requisition-changed';

/**
 * Record a requisition's state from a requisition-changed event in `lab_requisitions`, unless a newer (or the
 * same) version is already recorded: a redelivery or an older event changes nothing. Returns whether it wrote.
 *
 * One conditional upsert: replace where the recorded version is older, insert where none is recorded. Where a
 * newer one is recorded the upsert's insert hits the existing `_id` (duplicate key): nothing written. Two first
 * records at once: the loser's insert hits the winner's, so it is tried once more against that record.
 */
export async function recordRequisitionChange(
  models: LabModels,
  event: EventEnvelope<'requisition-changed'>,
): Promise<boolean> {
  const d = event.data;
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
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await models.LabRequisition.replaceOne(
        { _id: d.requisitionId, version: { $lt: d.requisitionVersion } },
        state,
        { upsert: true },
      ).exec();
      return true;
    } catch (err) {
      if ((err as { code?: unknown })?.code !== 11000) throw err;
    }
  }
  return false;
}

/**
 * A test order's copy of its requisition in the audit trail: the version copied is bookkeeping (a requisition
 * saved without a change the lab copies moves only it: no entry).
 */
const COPIED_TEST_CHANGE: ChangeDescription<TestOrderDoc & Record<string, unknown>> = {
  ...TEST_ORDER_CHANGE,
  ignore: [...(TEST_ORDER_CHANGE.ignore ?? []), 'requisitionVersion'],
};

/**
 * Apply a requisition's recorded state to each of its test orders that has not seen that version yet: the
 * snapshot the lists show (review status, account, physician, location and patient with their names), deleted
 * with a deleted requisition (spec 1 section 4: Delete marks the form and its tests deleted), and no due date
 * while the clinical review is DISQUALIFIED (spec 1 section 4, `removesDueDates`). Each test order is one update
 * conditional on an older recorded version, so running this twice, or from both consumers at once, applies a
 * state once. A due date removed by DISQUALIFIED is a test change with its history entry and test-status event
 * (change due-date) in the same write; the other fields are a snapshot (no event). The requisition's samples take
 * its patient id (a patient merge). Returns the ids of the test orders it changed.
 *
 * All in one transaction with the audit entries (docs/audit.md "Changes"), by `system`: a test order whose copied
 * fields changed is a `test` `update` naming them (read before and after its update in the transaction), a sample
 * moved to another patient a `sample` `update` naming `patient.id` (read before the updateMany in the transaction;
 * after it, the same document with the new id).
 */
export async function applyRequisitionState(models: LabModels, requisitionId: string): Promise<string[]> {
  const state = await models.LabRequisition.findById(requisitionId).lean<LabRequisitionDoc>().exec();
  if (!state) return [];
  const unseen = {
    'testOrderForm.id': requisitionId,
    'testOrderForm.requisitionVersion': { $not: { $gte: state.version } },
  };
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
  const clearDueDates = removesDueDates(state);
  if (clearDueDates) $set.dueOn = null;
  const trail = labAuditTrail(models);
  let entries = 0;
  const changed = await inTransaction(models.TestOrder.db, async (session) => {
    const applied: string[] = [];
    const inputs: AuditInput[] = [];
    const docs = await models.TestOrder.find(unseen, { outbox: 0 }, { session })
      .lean<TestOrderDoc[]>()
      .exec();
    for (const doc of docs) {
      let update: Record<string, unknown> = { $set, $inc: { version: 1 } };
      if (clearDueDates && doc.dueOn) {
        // a due date removed by a DISQUALIFIED review is a change of the test like any other: its history entry
        // and its test-status event (change due-date) go in the same write
        const at = new Date(state.changedOn);
        const by = { id: state.changedBy ?? 'system', name: 'Clinical review (DISQUALIFIED)' };
        const after: TestOrderDoc = {
          ...doc,
          dueOn: null,
          testOrderForm: {
            ...doc.testOrderForm,
            account: state.account,
            physician: state.physician,
            hospitalLocation: state.hospitalLocation,
            patient: state.patient,
            reviewStatus: state.clinicalReviewStatus,
          },
        };
        update = withOutbox(
          {
            $set,
            $inc: { version: 1 },
            $push: {
              testHistories: {
                status: doc.status,
                createdOn: at,
                updatedOn: at,
                testResult: null,
                change: 'due-date',
                by,
                detail: null,
              },
            },
          },
          testStatusEvent(after, doc.status, 'due-date', by, at),
        );
      }
      // not seen yet (no version recorded, or an older one): the same filter as the read, per test order
      const written = await models.TestOrder.findOneAndUpdate(
        { _id: doc._id, 'testOrderForm.requisitionVersion': { $not: { $gte: state.version } } },
        update,
        { returnDocument: 'after', projection: { outbox: 0 }, session },
      )
        .lean<TestOrderDoc>()
        .exec();
      if (!written) continue;
      applied.push(doc._id);
      const input = changeInputOf(
        COPIED_TEST_CHANGE,
        doc as TestOrderDoc & Record<string, unknown>,
        written as TestOrderDoc & Record<string, unknown>,
      );
      if (input.changes?.length) inputs.push(input);
    }
    // the requisition's samples follow its patient (a patient merge or its undo moves the requisition): their
    // patient id (the sample manifest list's patient filter) is a snapshot too, not announced on sample events
    const patientId = state.patient?.id;
    if (patientId) {
      const moving = {
        'testOrderForm.id': requisitionId,
        patient: { $ne: null },
        'patient.id': { $ne: patientId },
      };
      const before = await models.Sample.find(moving, { outbox: 0 }, { session }).lean<SampleDoc[]>().exec();
      if (before.length) {
        await models.Sample.updateMany(moving, { $set: { 'patient.id': patientId } }, { session }).exec();
        for (const b of before)
          inputs.push(
            changeInputOf(
              SAMPLE_CHANGE,
              b as SampleDoc & Record<string, unknown>,
              {
                ...b,
                patient: { ...b.patient!, id: patientId },
              } as SampleDoc & Record<string, unknown>,
            ),
          );
      }
    }
    await trail.recordIn(session, inputs, SYSTEM_ACTOR);
    entries = inputs.length;
    return applied;
  });
  if (entries) trail.recorded();
  return changed;
}

/**
 * Start the requisition-changed consumer: the state recorded and applied to the requisition's test orders (deleted,
 * due dates, review status, names); a TRF merge ends the duplicate's tests as 'merged'.
 */
export async function startRequisitionChangedConsumer(ctx: PlatformContext, models: LabModels) {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(LAB_REQUISITION_CHANGED_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-changed'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event: AnyEvent) => {
      if (!isEventOf(event, 'requisition-changed')) return;
      await recordRequisitionChange(models, event);
      const applied = await applyRequisitionState(models, event.data.requisitionId);
      if (applied.length) ctx.nudgeOutbox(); // a due date removed by DISQUALIFIED carries its test-status event
      // a TRF merge: the duplicate's tests end as 'merged' (cancelled unless reported), each with its event
      const into = event.data.mergedInto ?? null;
      if (event.data.status === 'INVALID' && into) {
        const merged = await markTestsMerged(
          { models },
          event.data.requisitionId,
          into,
          event.data.changedBy,
          new Date(event.data.changedOn),
        );
        if (merged.length) ctx.nudgeOutbox();
      }
      ctx.logger.info(
        { requisitionId: event.data.requisitionId, changes: event.data.changes, applied: applied.length },
        'requisition change applied to its test orders',
      );
    },
  });
}
