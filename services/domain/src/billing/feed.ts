import type { BillingCaseStatus } from '../enums';

/**
 * The billing system's status feed (docs/billing-gateway.md "The status feed"): after its first answer to a
 * claim, the billing system reports later statuses of that claim (paid, denied, corrected, ...) as entries of a
 * feed the platform polls. This is the one rule of what an entry does to its billing case: which statuses the
 * feed may report and the case status each one sets, and which cases an entry may move.
 */

/** The statuses the billing system may report later, in its feed. */
export const BILLING_FEED_STATUSES = ['PAID', 'DENIED', 'CORRECTED', 'ON_HOLD', 'DUPLICATE'] as const;
export type BillingFeedStatus = (typeof BILLING_FEED_STATUSES)[number];

/**
 * Each feed status, the case status it sets, and whether the case keeps the entry's errors (or its note) as
 * `errorDetails`: a paid or corrected claim has no problem left, so its case's errorDetails are cleared.
 */
export const BILLING_FEED_CASE_STATUS: Readonly<
  Record<BillingFeedStatus, { caseStatus: BillingCaseStatus; details: boolean }>
> = {
  PAID: { caseStatus: 'BILLING_COMPLETE', details: false },
  DENIED: { caseStatus: 'REJECTED_BY_XIFIN', details: true },
  CORRECTED: { caseStatus: 'FIXED_IN_XIFIN', details: false },
  ON_HOLD: { caseStatus: 'ON_HOLD_EXTERNAL', details: true },
  DUPLICATE: { caseStatus: 'DUPLICATE_ACCESSION', details: true },
};

/** Closed cases: no feed entry moves them (billing staff closed them, or the claim was paid). */
export const FEED_CLOSED_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'CANCELLED',
  'RETIRED_FROM_BILLING',
  'BILLING_COMPLETE',
];

/**
 * Cases whose current generation was never sent (not submitted, or queued and not yet marked SUBMITTED_TO_XIFIN,
 * which the worker commits before the claim leaves): the billing system cannot know this generation's claim.
 */
export const FEED_UNSENT_CASE_STATUSES: readonly BillingCaseStatus[] = [
  'NOT_SUBMITTED',
  'READY_TO_SUBMIT',
  'QUEUED_FOR_SUBMISSION',
];

/** Why an entry changes nothing (it is recorded as skipped with this reason, and the feed goes on). */
export const FEED_SKIP_REASONS = [
  // an entry the platform cannot read (no id, status or key of the contract's shape): the poller's own check
  'invalid-entry',
  'unknown-status',
  'invalid-key',
  'unknown-case',
  'other-generation',
  'case-closed',
  'not-sent',
  'unchanged',
] as const;
export type FeedSkipReason = (typeof FEED_SKIP_REASONS)[number];

export interface FeedError {
  code: string;
  message: string;
}

/** What an entry says of a claim, as far as the rule needs it. */
export interface FeedEntryInput {
  /** the claim key `{caseId}:{generation}` */
  key: string;
  status: string;
  errors?: readonly FeedError[] | null;
  note?: string | null;
}

/** The case the entry's key names, as stored; null when there is none (or it is deleted). */
export interface FeedCaseInput {
  caseStatus: BillingCaseStatus;
  /** the current submission's generation; null before the first Submit */
  generation: number | null;
  errorDetails: string | null;
}

export type FeedDecision =
  | {
      apply: true;
      caseStatus: BillingCaseStatus;
      errorDetails: string | null;
      /** the entry's note, for the history entry's reason; null when none, or when it is the errorDetails */
      note: string | null;
    }
  | { apply: false; reason: FeedSkipReason; message: string };

/** errorDetails and the history keep at most this much text (the billing-case event's limit). */
export const FEED_DETAILS_MAX = 10_000;

/** The claim key `{caseId}:{generation}` the submission worker sends (and the feed echoes), or null. */
export function parseClaimKey(key: string): { caseId: string; generation: number } | null {
  const at = key.lastIndexOf(':');
  if (at <= 0) return null;
  const generation = Number(key.slice(at + 1));
  if (!Number.isSafeInteger(generation) || generation < 1) return null;
  return { caseId: key.slice(0, at), generation };
}

export const isBillingFeedStatus = (s: string): s is BillingFeedStatus =>
  (BILLING_FEED_STATUSES as readonly string[]).includes(s);

const clip = (text: string | null) =>
  text !== null && text.length > FEED_DETAILS_MAX ? `${text.slice(0, FEED_DETAILS_MAX - 1)}…` : text;

/** The errors as `CODE: message` lines (as the first answer's), else the note, else null; clipped. */
export function feedErrorDetails(errors: readonly FeedError[] | null | undefined, note?: string | null) {
  return clip(
    errors?.length ? errors.map((e) => `${e.code}: ${e.message}`).join('\n') : note?.trim() || null,
  );
}

const skip = (reason: FeedSkipReason, message: string): FeedDecision => ({ apply: false, reason, message });

/**
 * What a feed entry does to the case its key names (`current`: null when the platform has no such case).
 * Applied: the case status of the entry's feed status, with its errors (or its note) as errorDetails where the
 * status keeps them, and its note for the history entry (unless it is the errorDetails already). Skipped, with the reason: a status the platform does not know, a key it cannot read, an
 * unknown case, a case of another generation (an older submission's claim, or one the case never had), a closed
 * case (CANCELLED, RETIRED_FROM_BILLING, BILLING_COMPLETE), a generation never sent, or a case already as the entry
 * says. Every other case of the entry's generation moves: the claim is at the billing system, whose word is newer
 * than what the case holds (a first answer, a retry still waiting to learn it, a status set by hand).
 */
export function decideFeedEntry(entry: FeedEntryInput, current: FeedCaseInput | null): FeedDecision {
  if (!isBillingFeedStatus(entry.status))
    return skip('unknown-status', `The feed status ${entry.status} is not one the platform knows.`);
  const key = parseClaimKey(entry.key);
  if (!key) return skip('invalid-key', `The claim key ${entry.key} is not {caseId}:{generation}.`);
  if (!current) return skip('unknown-case', `There is no billing case ${key.caseId}.`);
  if (current.generation !== key.generation)
    return skip(
      'other-generation',
      `The entry is for submission ${key.generation}; the case is at submission ${current.generation ?? 'none'}.`,
    );
  if (FEED_CLOSED_CASE_STATUSES.includes(current.caseStatus))
    return skip('case-closed', `The billing case is ${current.caseStatus}.`);
  if (FEED_UNSENT_CASE_STATUSES.includes(current.caseStatus))
    return skip('not-sent', `The billing case is ${current.caseStatus}: this submission was not sent.`);
  const to = BILLING_FEED_CASE_STATUS[entry.status];
  const errorDetails = to.details ? feedErrorDetails(entry.errors, entry.note) : null;
  if (current.caseStatus === to.caseStatus && (current.errorDetails ?? null) === errorDetails)
    return skip('unchanged', `The billing case is already ${to.caseStatus}.`);
  const note = clip(entry.note?.trim() || null);
  return { apply: true, caseStatus: to.caseStatus, errorDetails, note: note === errorDetails ? null : note };
}
