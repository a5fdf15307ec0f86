import { REPORTED_TEST_STATUSES } from '@onco/domain';
import { conditionalWrite } from '@onco/platform';
import type { TestOrderDoc } from '../models';
import type { LabDeps } from './deps';
import { writeDecision } from './test-orders';

/**
 * A TRF merge made this requisition INVALID (requisition-changed with `mergedInto`): each of its test orders gets
 * a 'merged' history entry and test-status event; one still open is CANCELLED (the primary carries the order on),
 * a reported one keeps its status and its reports. Idempotent: a test order with a 'merged' entry is skipped.
 * Returns the ids changed.
 */
export async function markTestsMerged(
  deps: LabDeps,
  requisitionId: string,
  into: { id: string; testRequisitionId: string },
  by: { id: string; name: string },
  at: Date,
): Promise<string[]> {
  const changed: string[] = [];
  const ids = (
    await deps.models.TestOrder.find({ 'testOrderForm.id': requisitionId, deleted: false }, { _id: 1 })
      .lean()
      .exec()
  ).map((t) => t._id);
  for (const id of ids) {
    // a lost race is read again; one that keeps losing is a 409, and the event is handled again
    const outcome = await conditionalWrite(async () => {
      const doc = await deps.models.TestOrder.findOne({ _id: id, deleted: false })
        .lean<TestOrderDoc>()
        .exec();
      if (!doc || doc.testHistories.some((h) => h.change === 'merged')) return 'skipped';
      const done = await writeDecision(
        deps,
        doc,
        {
          change: 'merged',
          status: REPORTED_TEST_STATUSES.includes(doc.status) ? doc.status : 'CANCELLED',
          detail: `Merged into ${into.testRequisitionId}`,
        },
        by,
        at,
      );
      return done ? 'changed' : null;
    });
    if (outcome === 'changed') changed.push(id);
  }
  return changed;
}
