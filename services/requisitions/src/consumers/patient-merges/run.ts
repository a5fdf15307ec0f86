import { Schema, type Connection, type Model } from 'mongoose';
import {
  createEvent,
  outboxEntrySchemaDefinition,
  outboxEntrySchemaOptions,
  withOutbox,
  type EventEnvelope,
  type OutboxEntry,
  type PatientMergeDirection,
} from '@onco/events';
import type { PlatformContext, SessionUser } from '@onco/platform';
import type { RequisitionDoc, RequisitionModels } from '../../models';

export interface PatientMergeHooks {
  /** requisitions moved at once (default MOVE_CONCURRENCY) */
  concurrency?: number;
  /** called after each requisition moved (tests: a crash mid-merge is an exception thrown here) */
  afterMove?: (moved: number, run: PatientMergeRunDoc) => void | Promise<void>;
  /** kafkajs heartbeat of the message being handled (a long run keeps its session) */
  heartbeat?: () => Promise<void>;
}

export type PatientSnapshot = NonNullable<RequisitionDoc['patient']>;

/** One requisition of a run: where it was before (the whole patient snapshot, for the undo). */
export interface PatientMergeRunEntry {
  requisitionId: string;
  fromPatientId: string;
  fromPatient: PatientSnapshot;
  draft: boolean;
}

/**
 * This service's record of one run of a patient merge (`<mergeId>:merge`) or of its undo (`<mergeId>:undo`),
 * collection `patient_merge_runs`: the requisitions it moves, fixed by the first delivery of the `patient` event
 * (so a redelivery after a crash resumes the same list), and, once every one is moved, `finishedOn` with its
 * `patient-requisitions` event in `outbox`.
 */
export interface PatientMergeRunDoc {
  _id: string;
  mergeId: string;
  direction: PatientMergeDirection;
  targetId: string;
  sourceIds: string[];
  entries: PatientMergeRunEntry[];
  /** submitted requisitions of the run (the progress bar's total) */
  total: number;
  createdOn: Date;
  finishedOn: Date | null;
  outbox: OutboxEntry[];
}

const runSchema = new Schema(
  {
    _id: { type: String, required: true },
    mergeId: { type: String, required: true },
    direction: { type: String, enum: ['merge', 'undo'], required: true },
    targetId: { type: String, required: true },
    sourceIds: { type: [String], default: [] },
    // the snapshots as they were (Mixed: stored as read, restored as stored)
    entries: { type: [Schema.Types.Mixed], default: [] },
    total: { type: Number, default: 0 },
    createdOn: { type: Date, default: () => new Date() },
    finishedOn: { type: Date, default: null },
    outbox: { type: [new Schema(outboxEntrySchemaDefinition, outboxEntrySchemaOptions)], default: [] },
  },
  { collection: 'patient_merge_runs', versionKey: false, minimize: false },
);

export function patientMergeRunModel(conn: Connection): Model<PatientMergeRunDoc> {
  return (
    (conn.models.PatientMergeRun as Model<PatientMergeRunDoc> | undefined) ??
    (conn.model('PatientMergeRun', runSchema) as unknown as Model<PatientMergeRunDoc>)
  );
}

/** One delivery of a `patient` event being applied (applyPatientMergeEvent): what its steps share. */
export interface MergeRunContext {
  ctx: Pick<PlatformContext, 'nudgeOutbox'>;
  models: RequisitionModels;
  hooks: PatientMergeHooks;
  Run: Model<PatientMergeRunDoc>;
  event: EventEnvelope<'patient'>;
  direction: PatientMergeDirection;
  runId: string;
}

/** The delivery once its run is open: the run as last read, and the requisitions this delivery moved. */
export interface MergeRunProgress extends MergeRunContext {
  /** the merge's author, as the actor of the requisition-changed events */
  actor: SessionUser;
  run: PatientMergeRunDoc;
  moved: number;
}

/** The requisitions the run moves: on a merge those of the duplicates now; on an undo those the merge moved. */
export async function snapshotFor(m: MergeRunContext): Promise<PatientMergeRunEntry[]> {
  const d = m.event.data;
  if (m.direction === 'merge') {
    const rows = await m.models.Requisition.find(
      { 'patient.id': { $in: d.sourceIds } },
      { patient: 1, status: 1 },
    )
      .lean<Array<Pick<RequisitionDoc, '_id' | 'patient' | 'status'>>>()
      .exec();
    return rows.map((r) => ({
      requisitionId: r._id,
      fromPatientId: r.patient!.id!,
      fromPatient: r.patient!,
      draft: r.status === 'DRAFT',
    }));
  }
  // the undo: every requisition the merge moved, back to its recorded snapshot
  const merged = await m.Run.findById(`${d.mergeId}:merge`).lean<PatientMergeRunDoc>().exec();
  return merged?.entries ?? [];
}

/** The run's record on its first delivery, its list fixed (two deliveries at once: the first insert wins). */
export async function openRun(m: MergeRunContext): Promise<PatientMergeRunDoc> {
  const d = m.event.data;
  const entries = await snapshotFor(m);
  try {
    await m.Run.create({
      _id: m.runId,
      mergeId: d.mergeId,
      direction: m.direction,
      targetId: d.patientId,
      sourceIds: d.sourceIds,
      entries,
      total: entries.filter((e) => !e.draft).length,
      createdOn: new Date(),
      finishedOn: null,
      outbox: [],
    });
  } catch (err) {
    if ((err as { code?: unknown })?.code !== 11000) throw err;
  }
  return (await m.Run.findById(m.runId).lean<PatientMergeRunDoc>().exec())!;
}

/** Every requisition moved: the run is finished with its `patient-requisitions` event (once). */
export async function finishRun(m: MergeRunProgress): Promise<void> {
  const d = m.event.data;
  const now = new Date();
  const done = createEvent('patient-requisitions', {
    data: {
      mergeId: d.mergeId,
      direction: m.direction,
      targetId: d.patientId,
      sourceIds: d.sourceIds,
      total: m.run.total,
      drafts: m.run.entries.filter((e) => e.draft).length,
      completedOn: now.toISOString(),
    },
    traceId: m.event.traceId,
  });
  await m.Run.updateOne(
    { _id: m.runId, finishedOn: null },
    withOutbox({ $set: { finishedOn: now } }, done),
  ).exec();
  m.ctx.nudgeOutbox();
}
