import { isEventOf, runConsumer, withPrefix, type AnyEvent, type EventEnvelope } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { MessagesModels } from '../models';

/** The messages service's consumer group for requisition-submitted (prefixed like the topics). */
export const MESSAGES_REQUISITION_GROUP = 'messages.requisition-scope';

/**
 * Keep the requisition's data scope (account, physician, patient) in the messages service's own collection, so
 * the comment routes can check a user's scope without reading the requisitions collection. An upsert by the
 * requisition id: a redelivery writes the same values again. A requisition's events share one partition (key =
 * requisition id), so they apply in order; an older submission never overwrites a newer one (submittedOn guard).
 */
export async function projectRequisitionScope(
  models: MessagesModels,
  event: EventEnvelope<'requisition-submitted'>,
): Promise<void> {
  const d = event.data;
  const submittedOn = new Date(d.submittedOn);
  const existing = await models.RequisitionScope.findById(d.requisitionId, { submittedOn: 1 }).lean().exec();
  if (existing && existing.submittedOn > submittedOn) return;
  await models.RequisitionScope.updateOne(
    { _id: d.requisitionId },
    {
      $set: {
        testRequisitionId: d.testRequisitionId,
        accountId: d.accountId,
        physicianId: d.physicianId,
        patientId: d.patientId,
        submittedOn,
        updatedOn: new Date(),
      },
    },
    { upsert: true },
  ).exec();
}

export async function startMessagesConsumers(ctx: PlatformContext, models: MessagesModels) {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(MESSAGES_REQUISITION_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['requisition-submitted'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event: AnyEvent) => {
      if (isEventOf(event, 'requisition-submitted')) await projectRequisitionScope(models, event);
    },
  });
  return { stop: () => consumer.stop() };
}
