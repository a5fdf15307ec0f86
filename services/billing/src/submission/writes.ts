import type { BillingCaseStatus } from '@onco/domain';
import { withOutbox } from '@onco/events';
import type { mongo } from 'mongoose';
import { billingCaseEvent, historyEntry, SYSTEM_ACTOR, type CaseWriter } from '../use-cases';
import type { BillingCaseDoc, BillingModels } from '../models';
import type { BillingSubmitJobData } from './submit-job';

/**
 * The worker's writes go to the driver without mongoose's casting (~0.3-0.5 ms of CPU a write, on the process
 * that also runs the queue and the relay): everything they hold is already what the store keeps (strings,
 * numbers, Dates, the history entry and the outbox entry as built).
 */
export interface UncastWrites {
  cases: mongo.Collection<BillingCaseDoc>;
  writeUncast: CaseWriter;
}

/** The billing cases' collection and a case writer on it, both without mongoose's casting. */
export function uncastWrites(models: BillingModels): UncastWrites {
  const cases = models.BillingCase.collection as unknown as mongo.Collection<BillingCaseDoc>;
  const writeUncast: CaseWriter = async (w) =>
    (
      await cases.updateOne(
        w.filter as mongo.Filter<BillingCaseDoc>,
        w.update as mongo.UpdateFilter<BillingCaseDoc>,
      )
    ).modifiedCount === 1;
  return { cases, writeUncast };
}

/**
 * Step 1 of a first send without reading the case first: QUEUED_FOR_SUBMISSION (of this generation, still as
 * Submit queued it) -> SUBMITTED_TO_XIFIN with its history entry and its billing-case event (built from what the
 * filter guarantees), the case returned as written. Null when the case is not in that state (a re-run after a
 * crash, a retry, a stale job, a case changed meanwhile): the caller reads it and decides as usual.
 */
export async function markSubmitted(
  deps: Pick<UncastWrites, 'cases'>,
  caseId: string,
  generation: number,
  queued: NonNullable<BillingSubmitJobData['queued']>,
): Promise<BillingCaseDoc | null> {
  const at = new Date();
  const status: BillingCaseStatus = 'SUBMITTED_TO_XIFIN';
  const event = billingCaseEvent(
    { _id: caseId, ...queued, caseStatus: status, errorDetails: null },
    'QUEUED_FOR_SUBMISSION',
    SYSTEM_ACTOR,
    at,
  );
  return deps.cases.findOneAndUpdate(
    {
      _id: caseId,
      deleted: false,
      caseStatus: 'QUEUED_FOR_SUBMISSION',
      'submission.generation': generation,
      testOrderId: queued.testOrderId,
      testOrderFormId: queued.testOrderFormId,
      billingCode: queued.billingCode,
    },
    withOutbox(
      {
        $set: {
          caseStatus: status,
          errorDetails: null,
          'submission.attempts': 1,
          updatedOn: at,
          updatedBy: SYSTEM_ACTOR.id,
        },
        $inc: { version: 1 },
        $push: { caseHistory: historyEntry(status, null, at, SYSTEM_ACTOR) },
      },
      event,
    ),
    { returnDocument: 'after', projection: { outbox: 0 } },
  ) as Promise<BillingCaseDoc | null>;
}
