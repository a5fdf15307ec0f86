import type { mongo } from 'mongoose';
import type { PlatformContext } from '@onco/platform';
import type { RequisitionDoc, RequisitionModels } from '../../models';

// The backfill of patient_requisitions (docs/decisions.md "Patient merge: a real crash, and the backfill ..."),
// started beside the patient-merge consumer (../patient-merges.ts)

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
