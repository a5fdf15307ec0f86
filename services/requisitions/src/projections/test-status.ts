import { isEventOf, runConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { RequisitionModels } from '../models';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const TEST_STATUS_PROJECTION_GROUP = 'requisitions.test-status';

/**
 * The requisition keeps a summary of its tests (the lab service owns test_orders): each `test-status` event
 * sets the status of that test on the requisition (orders list facets, summary progress, the Edit and Delete
 * rules). Idempotent: applying the same event twice sets the same value. An event older than the change
 * already applied is skipped (events of one test arrive in order on its partition; this guards a replay).
 *
 * Each step is one conditional update of that test's entry (never the whole list, which other writers change):
 * set it in place where its last change is not newer, or push it where the requisition does not list it yet.
 * When neither matches, the entry is newer (skip) or the requisition is gone, unless another writer added the
 * entry between the two steps: then the steps run again.
 */
export async function applyTestStatus(
  models: RequisitionModels,
  event: AnyEvent,
): Promise<'applied' | 'ignored'> {
  if (!isEventOf(event, 'test-status')) return 'ignored';
  const d = event.data;
  const changedOn = new Date(d.changedOn);
  const entry = {
    id: d.testOrderId,
    testOrderId: d.testId,
    testType: d.testType,
    orderType: d.orderType,
    status: d.status,
    dueOn: d.dueOn,
    statusChangedOn: changedOn,
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) set[`testOrders.$.${k}`] = v;
    const updated = await models.Requisition.updateOne(
      {
        _id: d.requisitionId,
        testOrders: {
          $elemMatch: {
            id: d.testOrderId,
            $or: [{ statusChangedOn: null }, { statusChangedOn: { $lte: changedOn } }],
          },
        },
      },
      { $set: set },
    ).exec();
    if (updated.matchedCount) return 'applied';
    const pushed = await models.Requisition.updateOne(
      { _id: d.requisitionId, 'testOrders.id': { $ne: d.testOrderId } },
      { $push: { testOrders: entry } },
    ).exec();
    if (pushed.matchedCount) return 'applied';
    const listed = await models.Requisition.findById(d.requisitionId, { testOrders: 1 }).lean().exec();
    const prior = listed?.testOrders.find((t) => t.id === d.testOrderId) as
      { statusChangedOn?: Date | null } | undefined;
    if (!listed) return 'ignored';
    if (prior?.statusChangedOn && new Date(prior.statusChangedOn) > changedOn) return 'ignored';
  }
  return 'ignored';
}

/** Start the projection's consumer (only in processes that run workers). */
export function startTestStatusProjection(
  ctx: PlatformContext,
  models: RequisitionModels,
): Promise<RunningConsumer> {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: `${ctx.config.TOPIC_PREFIX}${TEST_STATUS_PROJECTION_GROUP}`,
    topics: ['test-status'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event) => {
      await applyTestStatus(models, event);
    },
  });
}
