import { isEventOf, runConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
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
  const entry = timelineEntry(event);
  if (!entry) return false;
  const res = await models.TimelineEntry.updateOne(
    { _id: entry._id },
    { $setOnInsert: entry },
    { upsert: true },
  ).exec();
  return res.upsertedCount === 1;
}

export function startTimelineProjection(
  ctx: PlatformContext,
  models: RequisitionModels,
): Promise<RunningConsumer> {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: `${ctx.config.TOPIC_PREFIX}${TIMELINE_GROUP}`,
    topics: [...TOPICS],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event) => {
      await recordTimeline(models, event);
    },
  });
}
