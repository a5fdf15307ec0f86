import {
  decideFeedEntry,
  parseClaimKey,
  type BillingCaseStatus,
  type FeedError,
  type FeedSkipReason,
} from '@onco/domain';
import { conditionalWrite } from '@onco/platform';
import type { Logger } from 'pino';
import { caseWrite, type CaseActor } from '../use-cases';
import type { BillingCaseDoc, BillingFeedSkipDoc, BillingModels } from '../models';
import { uncastWrites } from './writes';

/**
 * One entry of the billing system's status feed applied to its billing case, exactly once
 * (docs/billing-gateway.md "The status feed"; the rule is @onco/domain's decideFeedEntry).
 *
 * - Applied: ONE conditional write of the case (on the version read, as every case write) with the new status and
 *   errorDetails, a history entry (with the entry's note as its `reason`), the `billing-case` event in its outbox, and the entry's id pushed on
 *   `feedEntryIds`; the write also requires the id not to be there yet. So an entry read twice (the cursor not
 *   advanced after a crash, two pollers at once) changes the case, adds its history entry and publishes its event
 *   once: the second finds its id on the case and changes nothing. The write commits with its audit entry (actor
 *   `system`, the fields it changed; writes.ts `writeUncast`), so a repeated entry records nothing.
 * - Skipped (an unknown case, another generation, a closed case, ...): recorded once in `billing_feed_skips` under the
 *   entry's id with the reason, logged when recorded (so once however often it is read), and never decided again:
 *   an older entry read again after newer ones were applied cannot apply out of order.
 */

/** Who made a change the feed brought: the billing system, through the poller. */
export const FEED_ACTOR: CaseActor = { id: 'billing-feed', name: 'billing feed' };

/** A feed entry as the poller reads it (the contract's fields; the stand-in's FeedEntry has this shape). */
export interface StatusFeedEntry {
  id: string;
  seq: number;
  key: string;
  status: string;
  errors?: FeedError[] | null;
  note?: string | null;
}

export type FeedApplyResult =
  | { outcome: 'applied'; caseId: string; caseStatus: BillingCaseStatus }
  /** the entry's id is on the case already, or it was skipped before: nothing changed this time */
  | { outcome: 'repeated'; caseId: string | null }
  | { outcome: 'skipped'; reason: FeedSkipReason; message: string };

export interface FeedApplyDeps {
  models: BillingModels;
  logger: Logger;
}

/** skips that say something is wrong between the two systems (the rest are the ordinary course of a claim) */
const WARN_REASONS: readonly FeedSkipReason[] = [
  'invalid-entry',
  'invalid-key',
  'unknown-status',
  'unknown-case',
];

/**
 * Record a skipped entry once (`_id` its id) and log it when this call recorded it. Ids and statuses only: the
 * errors and the note may name the patient.
 */
export async function recordFeedSkip(
  deps: FeedApplyDeps,
  entry: Pick<StatusFeedEntry, 'id' | 'seq' | 'key' | 'status'>,
  reason: FeedSkipReason,
  message: string,
): Promise<boolean> {
  const skips = deps.models.BillingFeedSkip.collection;
  const doc: Omit<BillingFeedSkipDoc, '_id'> = {
    seq: entry.seq,
    key: entry.key,
    status: entry.status,
    reason,
    message,
    skippedOn: new Date(),
  };
  let recorded = false;
  try {
    const res = await skips.updateOne({ _id: entry.id } as never, { $setOnInsert: doc }, { upsert: true });
    recorded = res.upsertedCount === 1;
  } catch (err) {
    // two pollers upserting the same entry at once: the other one recorded it
    if ((err as { code?: number }).code !== 11000) throw err;
  }
  if (recorded) {
    const line = { entryId: entry.id, seq: entry.seq, key: entry.key, status: entry.status, reason };
    if (WARN_REASONS.includes(reason)) deps.logger.warn(line, `billing feed entry skipped: ${message}`);
    else deps.logger.info(line, `billing feed entry skipped: ${message}`);
  }
  return recorded;
}

/** Apply one feed entry to its case (see above); safe to call any number of times, from any number of pollers. */
export async function applyFeedEntry(
  deps: FeedApplyDeps,
  entry: StatusFeedEntry,
  now: () => Date = () => new Date(),
): Promise<FeedApplyResult> {
  const { models } = deps;
  const key = parseClaimKey(entry.key);
  const caseId = key?.caseId ?? null;
  if (await models.BillingFeedSkip.exists({ _id: entry.id }).exec()) return { outcome: 'repeated', caseId };
  const { writeUncast } = uncastWrites(models);
  return conditionalWrite<FeedApplyResult>(
    async () => {
      const doc = caseId
        ? await models.BillingCase.findOne({ _id: caseId, deleted: false }, { outbox: 0 })
            .lean<BillingCaseDoc>()
            .exec()
        : null;
      if (doc?.feedEntryIds?.includes(entry.id)) return { outcome: 'repeated', caseId };
      const d = decideFeedEntry(
        entry,
        doc
          ? {
              caseStatus: doc.caseStatus,
              generation: doc.submission?.generation ?? null,
              errorDetails: doc.errorDetails ?? null,
            }
          : null,
      );
      if (!d.apply) {
        await recordFeedSkip(deps, entry, d.reason, d.message);
        return { outcome: 'skipped', reason: d.reason, message: d.message };
      }
      const w = caseWrite(
        doc!,
        {
          set: { caseStatus: d.caseStatus, errorDetails: d.errorDetails },
          history: true,
          // the billing system's note, shown with the history entry (as the reason of a status set by hand)
          ...(d.note ? { reason: d.note } : {}),
        },
        FEED_ACTOR,
        now(),
      )!;
      // exactly once: the entry's id is pushed in the same write, which requires it not to be there yet
      w.filter.feedEntryIds = { $ne: entry.id };
      (w.update.$push as Record<string, unknown>).feedEntryIds = entry.id;
      w.after.feedEntryIds = [...(doc!.feedEntryIds ?? []), entry.id];
      if (!(await writeUncast(w))) return null; // the case changed meanwhile (or took the entry): read again
      deps.logger.info(
        { entryId: entry.id, seq: entry.seq, caseId: doc!._id, from: doc!.caseStatus, to: d.caseStatus },
        'billing feed entry applied',
      );
      return { outcome: 'applied', caseId: doc!._id, caseStatus: d.caseStatus };
    },
    {
      attempts: 5,
      message: `The billing case of feed entry ${entry.id} kept changing; the next poll tries again.`,
    },
  );
}
