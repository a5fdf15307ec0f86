import { describe, expect, it } from 'vitest';
import { BILLING_CASE_STATUSES, type BillingCaseStatus } from '../enums';
import {
  BILLING_FEED_CASE_STATUS,
  BILLING_FEED_STATUSES,
  decideFeedEntry,
  FEED_CLOSED_CASE_STATUSES,
  FEED_DETAILS_MAX,
  FEED_UNSENT_CASE_STATUSES,
  feedErrorDetails,
  parseClaimKey,
  type FeedCaseInput,
} from './feed';

const accepted: FeedCaseInput = { caseStatus: 'ACCEPTED_BY_XIFIN', generation: 1, errorDetails: null };
const entry = (status: string, over: Record<string, unknown> = {}) => ({ key: 'case-1:1', status, ...over });

describe('the status feed: what a later status from the billing system does to its case', () => {
  it('maps each feed status to one case status', () => {
    expect(
      Object.fromEntries(BILLING_FEED_STATUSES.map((s) => [s, BILLING_FEED_CASE_STATUS[s].caseStatus])),
    ).toEqual({
      PAID: 'BILLING_COMPLETE',
      DENIED: 'REJECTED_BY_XIFIN',
      CORRECTED: 'FIXED_IN_XIFIN',
      ON_HOLD: 'ON_HOLD_EXTERNAL',
      DUPLICATE: 'DUPLICATE_ACCESSION',
    });
    for (const s of BILLING_FEED_STATUSES)
      expect(decideFeedEntry(entry(s), accepted)).toMatchObject({
        apply: true,
        caseStatus: BILLING_FEED_CASE_STATUS[s].caseStatus,
      });
  });

  it('given an accepted case, when PAID arrives, then BILLING_COMPLETE with no error details', () => {
    expect(
      decideFeedEntry(entry('PAID', { note: 'Paid in full' }), { ...accepted, errorDetails: 'old' }),
    ).toEqual({ apply: true, caseStatus: 'BILLING_COMPLETE', errorDetails: null, note: 'Paid in full' });
  });

  it('given an accepted case, when DENIED arrives with errors, then REJECTED_BY_XIFIN with CODE: message lines', () => {
    const errors = [
      { code: 'DEN-501', message: 'Not medically necessary' },
      { code: 'DEN-502', message: 'Prior authorization missing' },
    ];
    expect(decideFeedEntry(entry('DENIED', { errors, note: 'Appeal within 60 days' }), accepted)).toEqual({
      apply: true,
      caseStatus: 'REJECTED_BY_XIFIN',
      errorDetails: 'DEN-501: Not medically necessary\nDEN-502: Prior authorization missing',
      note: 'Appeal within 60 days',
    });
  });

  it('keeps the note as the details of a status that keeps them when there are no errors, else for the history', () => {
    expect(decideFeedEntry(entry('ON_HOLD', { note: '  Waiting for records ' }), accepted)).toEqual({
      apply: true,
      caseStatus: 'ON_HOLD_EXTERNAL',
      errorDetails: 'Waiting for records',
      note: null,
    });
    expect(decideFeedEntry(entry('ON_HOLD'), accepted)).toMatchObject({ errorDetails: null, note: null });
    expect(decideFeedEntry(entry('CORRECTED', { note: 'fixed' }), accepted)).toMatchObject({
      caseStatus: 'FIXED_IN_XIFIN',
      errorDetails: null,
      note: 'fixed',
    });
  });

  it('moves every case of the entry generation except closed and unsent ones', () => {
    const moves: BillingCaseStatus[] = [];
    for (const s of BILLING_CASE_STATUSES) {
      const d = decideFeedEntry(entry('ON_HOLD', { note: 'n' }), { ...accepted, caseStatus: s });
      if (d.apply) moves.push(s);
      else if (s !== 'ON_HOLD_EXTERNAL')
        expect(d.reason, s).toBe(FEED_CLOSED_CASE_STATUSES.includes(s) ? 'case-closed' : 'not-sent');
    }
    expect(moves.sort()).toEqual(
      BILLING_CASE_STATUSES.filter(
        (s) => !FEED_CLOSED_CASE_STATUSES.includes(s) && !FEED_UNSENT_CASE_STATUSES.includes(s),
      ).sort(),
    );
    // a claim being retried or given up on is at the billing system all the same
    expect(moves).toEqual(expect.arrayContaining(['SUBMITTED_TO_XIFIN', 'RETRY_SCHEDULED', 'RETRY_FAILED']));
    for (const s of ['CANCELLED', 'RETIRED_FROM_BILLING', 'BILLING_COMPLETE'] as const)
      expect(decideFeedEntry(entry('DENIED'), { ...accepted, caseStatus: s })).toMatchObject({
        apply: false,
        reason: 'case-closed',
      });
  });

  it('skips an entry of another generation, an unknown case, an unknown status and a key it cannot read', () => {
    expect(decideFeedEntry(entry('PAID'), { ...accepted, generation: 2 })).toMatchObject({
      apply: false,
      reason: 'other-generation',
    });
    expect(decideFeedEntry(entry('PAID', { key: 'case-1:3' }), accepted)).toMatchObject({
      reason: 'other-generation',
    });
    expect(decideFeedEntry(entry('PAID'), { ...accepted, generation: null })).toMatchObject({
      reason: 'other-generation',
    });
    expect(decideFeedEntry(entry('PAID'), null)).toMatchObject({ apply: false, reason: 'unknown-case' });
    expect(decideFeedEntry(entry('REFUNDED'), accepted)).toMatchObject({
      apply: false,
      reason: 'unknown-status',
    });
    for (const key of ['case-1', 'case-1:0', ':1', 'case-1:x', 'case-1:1.5'])
      expect(decideFeedEntry(entry('PAID', { key }), accepted), key).toMatchObject({ reason: 'invalid-key' });
  });

  it('skips an entry that would change nothing; the same status with new details applies', () => {
    const denied: FeedCaseInput = {
      caseStatus: 'REJECTED_BY_XIFIN',
      generation: 1,
      errorDetails: 'DEN-1: no',
    };
    expect(
      decideFeedEntry(entry('DENIED', { errors: [{ code: 'DEN-1', message: 'no' }] }), denied),
    ).toMatchObject({ apply: false, reason: 'unchanged' });
    expect(
      decideFeedEntry(entry('DENIED', { errors: [{ code: 'DEN-2', message: 'still no' }] }), denied),
    ).toEqual({ apply: true, caseStatus: 'REJECTED_BY_XIFIN', errorDetails: 'DEN-2: still no', note: null });
  });

  it('reads claim keys as {caseId}:{generation} (the last colon) and clips long details', () => {
    expect(parseClaimKey('abc:2')).toEqual({ caseId: 'abc', generation: 2 });
    expect(parseClaimKey('a:b:12')).toEqual({ caseId: 'a:b', generation: 12 });
    expect(parseClaimKey('abc')).toBeNull();
    const long = feedErrorDetails([{ code: 'X', message: 'y'.repeat(20_000) }]);
    expect(long).toHaveLength(FEED_DETAILS_MAX);
    expect(long!.endsWith('…')).toBe(true);
    expect(feedErrorDetails([], '  ')).toBeNull();
  });
});
