import type { BillingCaseStatus } from '@onco/domain';
import { withOutbox } from '@onco/events';
import { auditTrailOf, inTransaction, SYSTEM_ACTOR as AUDIT_SYSTEM_ACTOR } from '@onco/platform';
import type { mongo } from 'mongoose';
import {
  billingCaseChangeInput,
  billingCaseEvent,
  historyEntry,
  SYSTEM_ACTOR,
  type CaseWriter,
} from '../use-cases';
import type { BillingCaseDoc, BillingModels } from '../models';
import type { BillingSubmitJobData } from './submit-job';

/**
 * The worker's writes go to the driver without mongoose's casting (~0.3-0.5 ms of CPU a write, on the process
 * that also runs the queue and the relay): everything they hold is already what the store keeps (strings,
 * numbers, Dates, the history entry and the outbox entry as built). Each commits with its audit entry (actor
 * `system`, the fields changed: docs/audit.md "Changes") in one transaction; the entry is made of the case as the
 * change was decided on and as it is once written, so nothing is read again for it.
 */
export interface UncastWrites {
  cases: mongo.Collection<BillingCaseDoc>;
  writeUncast: CaseWriter;
}

/** The billing cases' collection and a case writer on it, both without mongoose's casting. */
export function uncastWrites(models: BillingModels): UncastWrites {
  const cases = models.BillingCase.collection as unknown as mongo.Collection<BillingCaseDoc>;
  const conn = models.BillingCase.db;
  const writeUncast: CaseWriter = async (w) => {
    const trail = auditTrailOf({ mongo: conn });
    const written = await inTransaction(conn, async (session) => {
      const res = await cases.updateOne(
        w.filter as mongo.Filter<BillingCaseDoc>,
        w.update as mongo.UpdateFilter<BillingCaseDoc>,
        { session },
      );
      if (res.modifiedCount !== 1) return false;
      await trail.recordIn(session, [billingCaseChangeInput(w.before, w.after)], AUDIT_SYSTEM_ACTOR);
      return true;
    });
    if (written) trail.recorded();
    return written;
  };
  return { cases, writeUncast };
}

/**
 * Step 1 of a first send without reading the case first: QUEUED_FOR_SUBMISSION (of this generation, still as
 * Submit queued it) -> SUBMITTED_TO_XIFIN with its history entry and its billing-case event (built from what the
 * filter guarantees), the case returned as written. Null when the case is not in that state (a re-run after a
 * crash, a retry, a stale job, a case changed meanwhile): the caller reads it and decides as usual. The write
 * returns the case as it was and the case as written is made of it and the update (one command, no read): both
 * make its audit entry, committed with it.
 */
export async function markSubmitted(
  deps: Pick<UncastWrites, 'cases'> & { models: Pick<BillingModels, 'BillingCase'> },
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
  const entry = historyEntry(status, null, at, SYSTEM_ACTOR);
  const set = { caseStatus: status, errorDetails: null, updatedOn: at, updatedBy: SYSTEM_ACTOR.id };
  const conn = deps.models.BillingCase.db;
  const trail = auditTrailOf({ mongo: conn });
  const after = await inTransaction(conn, async (session) => {
    const before = (await deps.cases.findOneAndUpdate(
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
          $set: { ...set, 'submission.attempts': 1 },
          $inc: { version: 1 },
          $push: { caseHistory: entry },
        },
        event,
      ),
      { returnDocument: 'before', projection: { outbox: 0 }, session },
    )) as BillingCaseDoc | null;
    if (!before) return null;
    // what the update makes of it (the filter guarantees `submission`)
    const written: BillingCaseDoc = {
      ...before,
      ...set,
      submission: { ...before.submission!, attempts: 1 },
      version: before.version + 1,
      caseHistory: [...(before.caseHistory ?? []), entry],
    };
    await trail.recordIn(session, [billingCaseChangeInput(before, written)], AUDIT_SYSTEM_ACTOR);
    return written;
  });
  if (after) trail.recorded();
  return after;
}
