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
 */
export async function applyTestStatus(
  ctx: PlatformContext,
  models: RequisitionModels,
  event: AnyEvent,
): Promise<'applied' | 'ignored'> {
  if (!isEventOf(event, 'test-status')) return 'ignored';
  const d = event.data;
  return ctx.locks.run('test_order_forms', d.requisitionId, async () => {
    const doc = await models.Requisition.findById(d.requisitionId, { testOrders: 1 }).lean().exec();
    if (!doc) return 'ignored';
    const changedOn = new Date(d.changedOn);
    const testOrders = [...doc.testOrders];
    const i = testOrders.findIndex((t) => t.id === d.testOrderId);
    const prior = i >= 0 ? (testOrders[i] as { statusChangedOn?: Date | null }) : null;
    if (prior?.statusChangedOn && new Date(prior.statusChangedOn) > changedOn) return 'ignored';
    const next = {
      ...(i >= 0 ? testOrders[i] : {}),
      id: d.testOrderId,
      testOrderId: d.testId,
      testType: d.testType,
      orderType: d.orderType,
      status: d.status,
      dueOn: d.dueOn,
      statusChangedOn: changedOn,
    };
    if (i >= 0) testOrders[i] = next as any;
    else testOrders.push(next as any);
    await models.Requisition.updateOne({ _id: d.requisitionId }, { $set: { testOrders } }).exec();
    return 'applied';
  });
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
      await applyTestStatus(ctx, models, event);
    },
  });
}
