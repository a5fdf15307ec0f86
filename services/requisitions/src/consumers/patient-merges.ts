import { Schema, type Connection, type Model, type mongo } from 'mongoose';
import {
  createEvent,
  isEventOf,
  outboxEntrySchemaDefinition,
  outboxEntrySchemaOptions,
  runConsumer,
  withOutbox,
  withPrefix,
  type AnyEvent,
  type EventEnvelope,
  type OutboxEntry,
  type PatientMergeDirection,
  type RunningConsumer,
} from '@onco/events';
import type { PlatformContext, SessionUser } from '@onco/platform';
import type { RequisitionDoc, RequisitionModels } from '../models';
import { requisitionChangedEvent, type RequisitionDeps } from '../use-cases';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const PATIENT_MERGES_GROUP = 'requisitions.patient-merges';

type PatientSnapshot = NonNullable<RequisitionDoc['patient']>;

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

/** Requisitions moved at once by one run (writes to different documents; the store's latency, not its CPU, bounds it). */
export const MOVE_CONCURRENCY = 8;

export interface PatientMergeHooks {
  /** requisitions moved at once (default MOVE_CONCURRENCY) */
  concurrency?: number;
  /** called after each requisition moved (tests: a crash mid-merge is an exception thrown here) */
  afterMove?: (moved: number, run: PatientMergeRunDoc) => void | Promise<void>;
  /** kafkajs heartbeat of the message being handled (a long run keeps its session) */
  heartbeat?: () => Promise<void>;
}

/**
 * Move the requisitions of a patient merge (`patient` event, change `merged`) to its primary patient, or back
 * (`merge-undone`) to where each was. Each requisition is ONE conditional write (on its version and its current
 * patient id) of its patient snapshot with its requisition-changed event (`patient-changed`, `patientMerge`):
 * a requisition already moved no longer matches, so a redelivery after a crash resumes where it stopped and
 * publishes nothing twice. A merge gives the requisition the primary's identity (id, number, names); the other
 * demographics stay as the form recorded them (events carry no demographics, docs/events.md). The undo restores
 * the snapshot recorded by the merge. When the list is done (plus any requisition that arrived for a duplicate
 * meanwhile), the run is finished with its `patient-requisitions` event.
 */
export async function applyPatientMergeEvent(
  ctx: Pick<PlatformContext, 'nudgeOutbox'>,
  models: RequisitionModels,
  deps: RequisitionDeps,
  event: AnyEvent,
  hooks: PatientMergeHooks = {},
): Promise<{ moved: number; total: number } | null> {
  if (!isEventOf(event, 'patient')) return null;
  const d = event.data;
  const Run = patientMergeRunModel(models.Requisition.db);
  const direction: PatientMergeDirection = d.change === 'merged' ? 'merge' : 'undo';
  const runId = `${d.mergeId}:${direction}`;
  let run = await Run.findById(runId).lean<PatientMergeRunDoc>().exec();
  if (run?.finishedOn) return { moved: 0, total: run.total };

  const snapshotFor = async (): Promise<PatientMergeRunEntry[]> => {
    if (direction === 'merge') {
      const rows = await models.Requisition.find(
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
    const merged = await Run.findById(`${d.mergeId}:merge`).lean<PatientMergeRunDoc>().exec();
    return merged?.entries ?? [];
  };
  if (!run) {
    const entries = await snapshotFor();
    try {
      await Run.create({
        _id: runId,
        mergeId: d.mergeId,
        direction,
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
    run = (await Run.findById(runId).lean<PatientMergeRunDoc>().exec())!;
  }

  const actor = {
    id: d.changedBy.id,
    firstName: d.changedBy.name,
    lastName: '',
  } as unknown as SessionUser;
  let moved = 0;
  const moveOne = async (entry: PatientMergeRunEntry, total: number) => {
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
      const base = requisitionChangedEvent(doc, { ...doc, patient }, ['patient-changed'], actor, now);
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
      const res = await models.Requisition.updateOne(
        { _id: doc._id, version: doc.version, 'patient.id': from },
        changed ? withOutbox(update, changed) : update,
      ).exec();
      if (res.modifiedCount === 1) {
        moved += 1;
        if (moved % 25 === 0) {
          ctx.nudgeOutbox();
          await hooks.heartbeat?.().catch(() => undefined);
        }
        await hooks.afterMove?.(moved, run!);
        return;
      }
      // the requisition changed in between (another writer): read it again
    }
    throw new Error(`requisition ${entry.requisitionId} kept changing while merging patients`);
  };

  /** the entries moved `concurrency` at a time (each move is independent: its own conditional write) */
  const moveAll = async (entries: PatientMergeRunEntry[], total: number) => {
    let next = 0;
    const workers = Math.max(1, hooks.concurrency ?? MOVE_CONCURRENCY);
    await Promise.all(
      Array.from({ length: Math.min(workers, entries.length) }, async () => {
        while (next < entries.length) await moveOne(entries[next++], total);
      }),
    );
  };
  await moveAll(run.entries, run.total);
  // requisitions that reached a duplicate after the list was fixed (a submission under way): moved too
  for (let round = 0; direction === 'merge' && round < 5; round++) {
    const known = new Set<string>(run.entries.map((e) => e.requisitionId));
    const late: PatientMergeRunEntry[] = (await snapshotFor()).filter((e) => !known.has(e.requisitionId));
    if (!late.length) break;
    const grown: PatientMergeRunDoc | null = await Run.findOneAndUpdate(
      { _id: runId },
      { $push: { entries: { $each: late } }, $inc: { total: late.filter((e) => !e.draft).length } },
      { returnDocument: 'after' },
    )
      .lean<PatientMergeRunDoc>()
      .exec();
    run = grown!;
    await moveAll(late, run.total);
  }

  const now = new Date();
  const done = createEvent('patient-requisitions', {
    data: {
      mergeId: d.mergeId,
      direction,
      targetId: d.patientId,
      sourceIds: d.sourceIds,
      total: run.total,
      drafts: run.entries.filter((e) => e.draft).length,
      completedOn: now.toISOString(),
    },
    traceId: event.traceId,
  });
  await Run.updateOne(
    { _id: runId, finishedOn: null },
    withOutbox({ $set: { finishedOn: now } }, done),
  ).exec();
  ctx.nudgeOutbox();
  return { moved, total: run.total };
}

export interface PatientMergeConsumerOptions {
  /** kafkajs session settings (default: the consumers' 10 s session and 1 s heartbeat, events/src/consumer.ts) */
  consumerConfig?: { sessionTimeout?: number; heartbeatInterval?: number; rebalanceTimeout?: number };
  /** run the patient_requisitions backfill in the background at start (default true) */
  backfill?: boolean;
}

/**
 * Start the consumer (only in processes that run workers), and, beside it, the backfill of the reference
 * service's `patient_requisitions` (`backfillPatientRequisitions`, below): in the background, so the start waits
 * for nothing; stopped with the consumer.
 */
export async function startPatientMergeConsumer(
  ctx: PlatformContext,
  models: RequisitionModels,
  deps: RequisitionDeps,
  hooks: PatientMergeHooks = {},
  options: PatientMergeConsumerOptions = {},
): Promise<RunningConsumer> {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(PATIENT_MERGES_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['patient'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    // a merge of many requisitions takes a while: the handler heartbeats every 25 moves, so the session stays
    // the consumers' short one (a broker restart or a dead member costs 10 s, not a minute)
    consumerConfig: options.consumerConfig,
    handler: async (event, hctx) => {
      const heartbeat = (hctx as unknown as { heartbeat?: () => Promise<void> }).heartbeat;
      const r = await applyPatientMergeEvent(ctx, models, deps, event, { ...hooks, heartbeat });
      if (r) ctx.logger.info({ mergeId: (event.data as any).mergeId, ...r }, 'patient merge run applied');
    },
  });
  if (options.backfill === false) return consumer;
  const abort = new AbortController();
  const backfill = backfillPatientRequisitions(ctx, models, { signal: abort.signal }).catch((err: unknown) =>
    // not fatal: the next start tries again from where the last finished run left off
    ctx.logger.error({ err }, 'patient_requisitions backfill failed'),
  );
  return {
    ready: consumer.ready,
    metrics: consumer.metrics,
    consumer: consumer.consumer,
    async stop() {
      abort.abort();
      await backfill;
      await consumer.stop();
    },
  };
}

// ---------------------------------------------------------------------------
// The backfill of patient_requisitions (docs/decisions.md "Patient merge: a real crash, and the backfill ...")
// ---------------------------------------------------------------------------

/**
 * The reference service's read model of which patient each submitted requisition belongs to (its
 * `patient_requisitions`, `services/reference/src/models/merge.ts`: `{_id: requisitionId, patientId, updatedOn}`).
 * Written here by the backfill only, insert-only; the reference service's consumer owns every other write.
 */
export const PATIENT_REQUISITIONS_COLLECTION = 'patient_requisitions';
/** This service's record of the backfill's last finished run (`{_id, cutoff, finishedOn, scanned, inserted}`). */
export const BACKFILL_MARKER_COLLECTION = 'patient_requisitions_backfill';
const BACKFILL_MARKER_ID = 'patient_requisitions';
/**
 * Requisitions written this recently are left to the events: a submission whose requisition-submitted the
 * reference service has not consumed yet must reach it as a new attachment (it blocks the undo of a merge into
 * that patient), which a row inserted here first would hide.
 */
export const BACKFILL_SETTLE_MS = 15 * 60_000;
export const BACKFILL_BATCH = 500;
/** a progress line every this many batches */
const BACKFILL_LOG_EVERY = 20;

export interface BackfillOptions {
  now?: Date;
  /** see BACKFILL_SETTLE_MS */
  settleMs?: number;
  batchSize?: number;
  /** scan every requisition again, not only those written since the last finished run */
  full?: boolean;
  signal?: AbortSignal;
}

export interface BackfillResult {
  /** requisitions written from `since` (null: from the first) to before `cutoff` */
  since: Date | null;
  cutoff: Date;
  scanned: number;
  /** rows inserted (requisitions the reference service did not know) */
  inserted: number;
  /** the run was stopped (the process is stopping) before the end: the marker is not moved */
  aborted: boolean;
}

interface PatientRequisitionRow {
  _id: string;
  patientId: string;
  updatedOn: Date;
}
interface BackfillMarker {
  _id: string;
  cutoff: Date;
  finishedOn: Date;
  scanned: number;
  inserted: number;
}

/**
 * Fill the reference service's `patient_requisitions` for the submitted requisitions it never heard of: those
 * submitted before its consumer of the requisition events existed (their events are gone from Kafka), so the
 * merge preview counts them and their first later event is not taken for a new attachment. A one-time data
 * migration run by this service (it owns the requisitions) at every start of its workers:
 * - insert-only (plain inserts keyed by the requisition id, see insertMissing): a row the consumer wrote, before or
 *   during the run, is never changed, and two runs (two processes starting) insert each row once;
 * - bounded: requisitions read in `_id` order, `batchSize` at a time (projection `patient.id`), the rows that
 *   exist read per batch;
 * - incremental: a finished run records its cutoff; the next one reads only the requisitions written since then
 *   (`full` reads them all again); requisitions written in the last BACKFILL_SETTLE_MS are left to the events;
 * - a progress line every 20 batches and one at the end.
 * Submitted means SUBMITTED or INVALID, deleted or not: what the reference consumer records and the merge moves.
 */
export async function backfillPatientRequisitions(
  ctx: Pick<PlatformContext, 'logger'>,
  models: RequisitionModels,
  opts: BackfillOptions = {},
): Promise<BackfillResult> {
  const db = models.Requisition.db.db;
  if (!db) throw new Error('the store is not connected');
  const rows = db.collection<PatientRequisitionRow>(PATIENT_REQUISITIONS_COLLECTION);
  const markers = db.collection<BackfillMarker>(BACKFILL_MARKER_COLLECTION);
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - (opts.settleMs ?? BACKFILL_SETTLE_MS));
  const batchSize = Math.max(1, opts.batchSize ?? BACKFILL_BATCH);
  const marker = opts.full ? null : await markers.findOne({ _id: BACKFILL_MARKER_ID });
  const since = marker?.cutoff ?? null;
  const result: BackfillResult = { since, cutoff, scanned: 0, inserted: 0, aborted: false };
  if (since && since >= cutoff) return result;

  const filter: Record<string, unknown> = {
    status: { $in: ['SUBMITTED', 'INVALID'] },
    updatedOn: since ? { $gte: since, $lt: cutoff } : { $lt: cutoff },
  };
  const log = (msg: string, batches: number) => ctx.logger.info({ ...result, batches, batchSize }, msg);
  let last: string | null = null;
  let batches = 0;
  for (;;) {
    if (opts.signal?.aborted) {
      result.aborted = true;
      log('patient_requisitions backfill stopped', batches);
      return result;
    }
    const batch: Array<Pick<RequisitionDoc, '_id' | 'patient'>> = await models.Requisition.find(
      last === null ? filter : { ...filter, _id: { $gt: last } },
      { 'patient.id': 1 },
    )
      .sort({ _id: 1 })
      .limit(batchSize)
      .lean<Array<Pick<RequisitionDoc, '_id' | 'patient'>>>()
      .exec();
    if (!batch.length) break;
    last = batch[batch.length - 1]._id;
    batches += 1;
    result.scanned += batch.length;
    const withPatient = batch.filter((r) => typeof r.patient?.id === 'string' && r.patient.id !== '');
    const known = new Set(
      (
        await rows.find({ _id: { $in: withPatient.map((r) => r._id) } }, { projection: { _id: 1 } }).toArray()
      ).map((r) => r._id),
    );
    const missing = withPatient.filter((r) => !known.has(r._id));
    if (missing.length) result.inserted += await insertMissing(rows, missing, now);
    if (batches % BACKFILL_LOG_EVERY === 0) log('patient_requisitions backfill progress', batches);
  }
  await markers.updateOne(
    { _id: BACKFILL_MARKER_ID },
    {
      // two runs at once: the later cutoff stands (each covered everything before its own)
      $max: { cutoff },
      $set: { finishedOn: new Date(), scanned: result.scanned, inserted: result.inserted },
    },
    { upsert: true },
  );
  log('patient_requisitions backfill done', batches);
  return result;
}

/**
 * Insert the rows that do not exist: plain inserts, a duplicate key being a row another writer inserted first
 * (kept as it is): the consumer's row always wins. (The published DocumentDB 0.106 also lost the consumer's write to
 * a racing `$setOnInsert` upsert; the store is patched since, infra/documentdb/extension-upsert-race.patch.)
 */
async function insertMissing(
  rows: mongo.Collection<PatientRequisitionRow>,
  missing: Array<Pick<RequisitionDoc, '_id' | 'patient'>>,
  now: Date,
): Promise<number> {
  const docs = missing.map((r) => ({ _id: r._id, patientId: r.patient!.id!, updatedOn: now }));
  try {
    return (await rows.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    const e = err as { code?: number; writeErrors?: unknown; result?: { insertedCount?: number } };
    const errors = (
      e.writeErrors === undefined ? [e] : Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors]
    ) as Array<{ code?: number }>;
    if (errors.some((w) => w?.code !== 11000)) throw err;
    return e.result?.insertedCount ?? 0;
  }
}
