import { isEventOf, runConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import { submissionKeyOf, type TrfQueue } from '../workers/trf-queue';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const TRF_CONSUMER_GROUP = 'requisitions.trf-pdf';

/**
 * What one `requisition-submitted` event asks of this service: the TRF PDF job of that submission when the
 * event's `createPdf` is true (the submit route sets it from the query's createPdf and the submitter's
 * CAN_CREATE_TRF_PDF). Idempotent: the job id is deterministic per submission, so a redelivered event (or
 * the same event handled twice after a crash) adds nothing new; the job itself never creates a second TRF.
 */
export async function handleRequisitionSubmitted(
  trf: TrfQueue,
  event: AnyEvent,
): Promise<'enqueued' | 'ignored'> {
  if (!isEventOf(event, 'requisition-submitted')) return 'ignored';
  const d = event.data;
  if (!d.createPdf) return 'ignored';
  await trf.add({
    requisitionId: d.requisitionId,
    submissionKey: submissionKeyOf(d.submittedOn),
    submittedOn: d.submittedOn,
    eventId: event.id,
  });
  return 'enqueued';
}

/** Start the consumer (only in processes that run workers; see the module's startConsumers). */
export function startRequisitionSubmittedConsumer(
  ctx: PlatformContext,
  trf: TrfQueue,
  opts: { consumerConfig?: { sessionTimeout?: number; heartbeatInterval?: number } } = {},
): Promise<RunningConsumer> {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: `${ctx.config.TOPIC_PREFIX}${TRF_CONSUMER_GROUP}`,
    topics: ['requisition-submitted'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    consumerConfig: opts.consumerConfig,
    handler: async (event) => {
      const outcome = await handleRequisitionSubmitted(trf, event);
      if (outcome === 'enqueued')
        ctx.logger.info({ eventId: event.id, requisitionId: event.subject }, 'TRF PDF job enqueued');
    },
  });
}
