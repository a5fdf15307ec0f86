import type { RequisitionModels } from '../models';
import { defineEventConsumer } from './event-consumer';
import { setListEntry } from './list-entry';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const TEST_STATUS_PROJECTION_GROUP = 'requisitions.test-status';

const testStatusProjection = defineEventConsumer({
  group: TEST_STATUS_PROJECTION_GROUP,
  family: 'test-status',
  apply: async (models: RequisitionModels, { data: d }) => {
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
    const set: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) set[`testOrders.$.${k}`] = v;
    const outcome = await setListEntry(models.Requisition, {
      requisitionId: d.requisitionId,
      list: 'testOrders',
      id: d.testOrderId,
      changedField: 'statusChangedOn',
      changedOn,
      notNewer: { $or: [{ statusChangedOn: null }, { statusChangedOn: { $lte: changedOn } }] },
      set,
      entry,
    });
    return outcome === 'set' ? 'applied' : 'ignored';
  },
});

/**
 * The requisition keeps a summary of its tests (the lab service owns test_orders): each `test-status` event
 * sets the status of that test on the requisition (orders list facets, summary progress, the Edit and Delete
 * rules). Idempotent: applying the same event twice sets the same value. An event older than the change
 * already applied is skipped (events of one test arrive in order on its partition; this guards a replay).
 * The entry is set in place or pushed by one conditional update of it (setListEntry).
 */
export const applyTestStatus = testStatusProjection.apply;

/** Start the projection's consumer (only in processes that run workers). */
export const startTestStatusProjection = testStatusProjection.start;
