import { createEvent, withOutbox, type EventEnvelope } from '@onco/events';
import { auditTrailOf } from '@onco/platform';
import type { RequisitionDoc } from '../../models';
import { requisitionChangedEvent } from '../../use-cases';
import { REQUISITION_CHANGE } from '../../use-cases/audit';
import {
  snapshotFor,
  type MergeRunProgress,
  type PatientMergeRunDoc,
  type PatientMergeRunEntry,
  type PatientSnapshot,
} from './run';

/** Requisitions moved at once by one run (writes to different documents; the store's latency, not its CPU, bounds it). */
export const MOVE_CONCURRENCY = 8;

/**
 * Move one requisition of the run: ONE conditional write (on its version and its current patient id) of its
 * patient snapshot with its requisition-changed event (`patient-changed`, `patientMerge`), committed with its
 * audit entry (docs/audit.md "Changes"); read again while another writer changes it.
 */
async function moveOne(m: MergeRunProgress, entry: PatientMergeRunEntry, total: number) {
  const { models, hooks, direction, event } = m;
  const d = event.data;
  const from = direction === 'merge' ? entry.fromPatientId : d.patientId;
  for (let attempt = 0; attempt < 20; attempt++) {
    const doc = await models.Requisition.findOne({ _id: entry.requisitionId, 'patient.id': from })
      .lean<RequisitionDoc>()
      .exec();
    if (!doc) return; // already moved (a redelivery) or moved elsewhere since
    const patient: PatientSnapshot =
      direction === 'merge'
        ? {
            ...doc.patient!,
            id: d.patientId,
            userId: d.patientNumber,
            firstName: d.firstName,
            middleName: d.middleName,
            lastName: d.lastName,
            name: d.patientName,
          }
        : entry.fromPatient;
    const now = new Date();
    const base = requisitionChangedEvent(doc, { ...doc, patient }, ['patient-changed'], m.actor, now);
    const changed = base
      ? createEvent('requisition-changed', {
          data: {
            ...(base as EventEnvelope<'requisition-changed'>).data,
            patientMerge: { mergeId: d.mergeId, direction, fromPatientId: from, total },
          },
          traceId: event.traceId,
        })
      : null;
    const update = {
      $set: { patient, updatedOn: now, updatedBy: d.changedBy.id },
      $inc: { version: 1 },
    };
    // committed with its audit entry (actor `system`: a consumer; the requisition's new patient)
    const res = await auditTrailOf({ mongo: models.Requisition.db }).update(
      models.Requisition,
      { _id: doc._id, version: doc.version, 'patient.id': from },
      changed ? withOutbox(update, changed) : update,
      REQUISITION_CHANGE,
    );
    if (res) {
      m.moved += 1;
      if (m.moved % 25 === 0) {
        m.ctx.nudgeOutbox();
        await hooks.heartbeat?.().catch(() => undefined);
      }
      await hooks.afterMove?.(m.moved, m.run);
      return;
    }
    // the requisition changed in between (another writer): read it again
  }
  throw new Error(`requisition ${entry.requisitionId} kept changing while merging patients`);
}

/** the entries moved `concurrency` at a time (each move is independent: its own conditional write) */
export async function moveAll(m: MergeRunProgress, entries: PatientMergeRunEntry[], total: number) {
  let next = 0;
  const workers = Math.max(1, m.hooks.concurrency ?? MOVE_CONCURRENCY);
  await Promise.all(
    Array.from({ length: Math.min(workers, entries.length) }, async () => {
      while (next < entries.length) await moveOne(m, entries[next++], total);
    }),
  );
}

/** requisitions that reached a duplicate after the list was fixed (a submission under way): moved too */
export async function moveLate(m: MergeRunProgress) {
  for (let round = 0; m.direction === 'merge' && round < 5; round++) {
    const known = new Set<string>(m.run.entries.map((e) => e.requisitionId));
    const late: PatientMergeRunEntry[] = (await snapshotFor(m)).filter((e) => !known.has(e.requisitionId));
    if (!late.length) break;
    const grown: PatientMergeRunDoc | null = await m.Run.findOneAndUpdate(
      { _id: m.runId },
      { $push: { entries: { $each: late } }, $inc: { total: late.filter((e) => !e.draft).length } },
      { returnDocument: 'after' },
    )
      .lean<PatientMergeRunDoc>()
      .exec();
    m.run = grown!;
    await moveAll(m, late, m.run.total);
  }
}
