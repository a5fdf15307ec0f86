import type { AnyBulkWriteOperation } from 'mongoose';
import { isEventOf, runBatchConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { RequisitionModels, TimelineEntryDoc } from '../models';

/** The consumer group (prefixed with TOPIC_PREFIX). */
export const TIMELINE_GROUP = 'requisitions.timeline';

const TOPICS = [
  'requisition-submitted',
  'requisition-changed',
  'test-status',
  'sample',
  'billing-case',
] as const;

/** What happens first when several entries share one instant: the order is submitted, then its tests, samples,
 * billing and TRF PDF follow (an order's submission and its first test entries carry the same time). */
const FAMILY_RANK: Record<string, number> = {
  'requisition-submitted': 0,
  'requisition-changed': 1,
  'test-status': 2,
  sample: 3,
  'billing-case': 4,
  attachment: 5,
};

/** The timeline's order: by time, then by FAMILY_RANK, then by id (a total order: the same list every time). */
export function timelineOrder(
  a: { at: Date | string; family: string; id?: string },
  b: { at: Date | string; family: string; id?: string },
): number {
  return (
    +new Date(a.at) - +new Date(b.at) ||
    (FAMILY_RANK[a.family] ?? 9) - (FAMILY_RANK[b.family] ?? 9) ||
    String(a.id ?? '').localeCompare(String(b.id ?? ''))
  );
}

/**
 * One time-ordered history per order (beyond the spec, issue 12): every event about a requisition, its tests and
 * its samples becomes a timeline entry, so lab staff read one list instead of piecing four tabs together. The
 * order summary and the test detail read it (GET /testOrderForms/{id}/timeline); the TRF PDFs (the requisition's
 * own attachments) and the comments (the messages service's) are merged in by the reader.
 *
 * Pure: the entry for an event, or null when the event is not about an order.
 */
export function timelineEntry(event: AnyEvent): TimelineEntryDoc | null {
  const base = { _id: event.id, testOrderId: null, sampleId: null };
  if (isEventOf(event, 'requisition-submitted')) {
    const d = event.data;
    return {
      ...base,
      requisitionId: d.requisitionId,
      at: new Date(d.submittedOn),
      family: 'requisition-submitted',
      kind: 'submitted',
      by: d.submittedBy,
      data: { testRequisitionId: d.testRequisitionId, tests: d.testOrders.map((t) => t.testOrderId) },
    };
  }
  if (isEventOf(event, 'requisition-changed')) {
    const d = event.data;
    return {
      ...base,
      requisitionId: d.requisitionId,
      at: new Date(d.changedOn),
      family: 'requisition-changed',
      kind: d.changes.join(','),
      by: d.changedBy,
      data: {
        changes: d.changes,
        status: d.status,
        deleted: d.deleted,
        clinicalReviewStatus: d.clinicalReviewStatus,
        previousClinicalReviewStatus: d.previousClinicalReviewStatus,
        // schemaVersion 6: the fields a form edit changed
        changedFields: d.changedFields ?? null,
        // schemaVersion 7: the financial assistance outcome after the change
        financialAssistanceOutcome: d.financialAssistanceOutcome ?? null,
      },
    };
  }
  if (isEventOf(event, 'test-status')) {
    const d = event.data as typeof event.data & {
      change?: string;
      report?: unknown;
      limsProjectId?: unknown;
    };
    return {
      ...base,
      requisitionId: d.requisitionId,
      testOrderId: d.testOrderId,
      at: new Date(d.changedOn),
      family: 'test-status',
      kind: d.change ?? (d.previousStatus === null ? 'created' : 'status'),
      by: d.changedBy,
      data: {
        testId: d.testId,
        testType: d.testType,
        previousStatus: d.previousStatus,
        status: d.status,
        dueOn: d.dueOn,
        limsProjectId: d.limsProjectId ?? null,
        report: d.report ?? null,
      },
    };
  }
  if (isEventOf(event, 'sample')) {
    const d = event.data;
    return {
      ...base,
      requisitionId: d.requisitionId,
      sampleId: d.sampleId,
      at: new Date(d.changedOn),
      family: 'sample',
      kind: d.change,
      by: d.changedBy,
      data: { type: d.type, status: d.status, limsId: d.limsId },
    };
  }
  if (isEventOf(event, 'billing-case')) {
    const d = event.data;
    return {
      ...base,
      requisitionId: d.requisitionId,
      testOrderId: d.testOrderId,
      at: new Date(d.changedOn),
      family: 'billing-case',
      kind: d.previousStatus === null ? 'created' : 'status',
      by: d.changedBy,
      data: { caseStatus: d.caseStatus, previousStatus: d.previousStatus, errorDetails: d.errorDetails },
    };
  }
  return null;
}

/** Record one event (idempotent: the event id is the entry's `_id`). */
export async function recordTimeline(models: RequisitionModels, event: AnyEvent): Promise<boolean> {
  return (await recordTimelineBatch(models, [event])).inserted === 1;
}

/** Entries written in one bulk write at most (a Kafka batch is up to ~1 MB a partition). */
const BULK = 500;

export interface TimelineBatchResult {
  /** entries that did not exist yet */
  inserted: number;
  /** events whose entry the store refused for a reason of its own (not a duplicate): dead-lettered by the caller */
  refused: { event: AnyEvent; error: string }[];
}

const isDuplicateKey = (code: unknown) => code === 11000;

/**
 * Record several events, one unordered bulk write of upserts per `BULK` entries. Idempotent per event: the entry's
 * `_id` is the event id and the upsert only `$setOnInsert`s, so a redelivered event (or one recorded twice in a
 * batch) changes nothing; a duplicate-key error (two upserts of one id racing) is that same case. A write error
 * specific to one entry is returned (the caller dead-letters it); anything else (the store unreachable) throws.
 */
export async function recordTimelineBatch(
  models: RequisitionModels,
  events: readonly AnyEvent[],
): Promise<TimelineBatchResult> {
  const result: TimelineBatchResult = { inserted: 0, refused: [] };
  const rows = events.flatMap((event) => {
    const entry = timelineEntry(event);
    return entry ? [{ event, entry }] : [];
  });
  for (let i = 0; i < rows.length; i += BULK) {
    const chunk = rows.slice(i, i + BULK);
    const ops: AnyBulkWriteOperation<TimelineEntryDoc>[] = chunk.map(({ entry }) => ({
      updateOne: { filter: { _id: entry._id }, update: { $setOnInsert: entry }, upsert: true },
    }));
    try {
      const res = await models.TimelineEntry.bulkWrite(ops, { ordered: false });
      result.inserted += res.upsertedCount;
    } catch (err) {
      const e = err as {
        writeErrors?: { index: number; code?: number; errmsg?: string }[];
        result?: { upsertedCount?: number };
      };
      if (!Array.isArray(e.writeErrors) || e.writeErrors.length === 0) throw err;
      result.inserted += e.result?.upsertedCount ?? 0;
      for (const w of e.writeErrors) {
        if (isDuplicateKey(w.code)) continue;
        result.refused.push({ event: chunk[w.index].event, error: String(w.errmsg ?? 'write error') });
      }
    }
  }
  return result;
}

/**
 * The projection's consumer: `runBatchConsumer` (kafkajs `eachBatch`), one bulk write a batch (not a dedupe read,
 * an upsert and a marker a message as `runConsumer` does). Safe without `processed_events` markers because the
 * write is idempotent by itself (see recordTimelineBatch). Offsets are resolved only after the batch's entries are
 * written, so a crash re-delivers and re-upserts (nothing lost, nothing doubled). Poison messages and the entries
 * the store refuses are dead-lettered by the runner and skipped; a store error throws, so kafkajs retries the batch.
 */
export function startTimelineProjection(
  ctx: PlatformContext,
  models: RequisitionModels,
): Promise<RunningConsumer> {
  return runBatchConsumer({
    kafka: ctx.kafka,
    db: models.TimelineEntry.db,
    groupId: `${ctx.config.TOPIC_PREFIX}${TIMELINE_GROUP}`,
    topics: TOPICS,
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    maxBatchSize: BULK,
    handler: async (events) => ({ refused: (await recordTimelineBatch(models, events)).refused }),
  });
}
