import { describe, expect, it } from 'vitest';
import type { BillingCaseRow } from './api';
import {
  billingActions,
  billingBaseFilter,
  historyNewestFirst,
  initialBillingState,
  needsPolling,
  opensOnCounter,
  statusColour,
} from './logic';

const row = (over: Partial<BillingCaseRow>): BillingCaseRow =>
  ({
    id: 'c',
    testOrderId: 't',
    caseStatus: 'NOT_SUBMITTED',
    orderType: 'INITIAL_ORDER',
    testStatus: 'IN_PROGRESS',
    ...over,
  }) as BillingCaseRow;
const ALL = ['VIEW_BILLING_ACTIONS', 'CAN_UPDATE_BILLING_CODE', 'CAN_UPDATE_ASSIGNEE'];

describe('billing actions (spec 3 section 6)', () => {
  it('Update Billing Code needs exactly one row and the permission; Assign at least one', () => {
    expect(billingActions([row({})], ALL)).toMatchObject({ billingCode: true, assign: true });
    expect(billingActions([row({}), row({ id: 'd' })], ALL)).toMatchObject({
      billingCode: false,
      assign: true,
    });
    expect(billingActions([row({})], ['VIEW_BILLING_ACTIONS'])).toMatchObject({
      billingCode: false,
      assign: false,
    });
  });

  it('Update Timepoint needs one subsequent order with its report out', () => {
    expect(
      billingActions([row({ orderType: 'SUBSEQUENT_ORDER', testStatus: 'REPORT_AMENDED' })], ALL).timePoint,
    ).toBe(true);
    expect(
      billingActions([row({ orderType: 'INITIAL_ORDER', testStatus: 'REPORT_COMPLETE' })], ALL).timePoint,
    ).toBe(false);
    expect(
      billingActions([row({ orderType: 'SUBSEQUENT_ORDER', testStatus: 'IN_PROGRESS' })], ALL).timePoint,
    ).toBe(false);
  });

  it('Update Billing Status needs every row partially accepted or duplicate', () => {
    expect(
      billingActions(
        [row({ caseStatus: 'PARTIALLY_ACCEPTED' }), row({ caseStatus: 'DUPLICATE_ACCESSION' })],
        ALL,
      ).status,
    ).toBe(true);
    expect(
      billingActions(
        [row({ caseStatus: 'PARTIALLY_ACCEPTED' }), row({ caseStatus: 'REJECTED_BY_XIFIN' })],
        ALL,
      ).status,
    ).toBe(false);
  });
});

describe('billing display', () => {
  it('colours the statuses as the spec says', () => {
    expect(statusColour('REJECTED_BY_XIFIN')).toBe(statusColour('DUPLICATE_ACCESSION'));
    expect(statusColour('PARTIALLY_ACCEPTED')).not.toBe(statusColour('REJECTED_BY_XIFIN'));
    expect(statusColour('NOT_SUBMITTED')).toBe('inherit');
  });
  it('lists history newest first', () => {
    expect(
      historyNewestFirst([
        { createdOn: '2026-01-01T00:00:00Z', n: 1 },
        { createdOn: '2026-02-01T00:00:00Z', n: 2 },
      ]).map((h) => h.n),
    ).toEqual([2, 1]);
  });
});

describe('billing list: what it opens with', () => {
  it('takes the review status and the needs-attention view from the dashboard, ignoring anything else', () => {
    expect(initialBillingState({ billingReviewStatus: 'NEEDS_REVIEW', from: 'home' })).toEqual({
      billingReviewStatus: 'NEEDS_REVIEW',
      needsAttention: false,
    });
    expect(initialBillingState({ needsAttention: true })).toEqual({
      billingReviewStatus: null,
      needsAttention: true,
    });
    expect(initialBillingState(null)).toEqual({ billingReviewStatus: null, needsAttention: false });
    expect(initialBillingState({ billingReviewStatus: 3, needsAttention: 'yes' })).toEqual({
      billingReviewStatus: null,
      needsAttention: false,
    });
  });

  it('sends the needs-attention statuses and the review status as filters', () => {
    expect(billingBaseFilter({ billingReviewStatus: null, needsAttention: false })).toEqual({});
    expect(billingBaseFilter({ billingReviewStatus: 'AWAITING_INFO', needsAttention: true })).toEqual({
      reviewStatus: ['AWAITING_INFO'],
      caseStatus: ['RETRY_FAILED', 'REJECTED_BY_XIFIN', 'UPDATE_NOT_ALLOWED'],
    });
  });

  it('offers Submit selected with VIEW_BILLING_ACTIONS and a selection', () => {
    const row = { caseStatus: 'RETRY_FAILED' } as BillingCaseRow;
    expect(billingActions([row], ['VIEW_BILLING_ACTIONS']).submit).toBe(true);
    expect(billingActions([], ['VIEW_BILLING_ACTIONS']).submit).toBe(false);
    expect(billingActions([row], []).submit).toBe(false);
  });
});

describe('needsPolling: the list refreshes itself while a case is on its way to the billing system', () => {
  it('a queued, sent or retried case on the page: poll', () => {
    for (const caseStatus of [
      'QUEUED_FOR_SUBMISSION',
      'SUBMITTED_TO_XIFIN',
      'RETRY_SCHEDULED',
      'RETRY_IN_PROGRESS',
    ] as const)
      expect(needsPolling([row({}), row({ caseStatus })]), caseStatus).toBe(true);
  });
  it('only settled cases (answered, not submitted, ready): no polling', () => {
    for (const caseStatus of [
      'NOT_SUBMITTED',
      'READY_TO_SUBMIT',
      'ACCEPTED_BY_XIFIN',
      'REJECTED_BY_XIFIN',
      'PARTIALLY_ACCEPTED',
      'PAYOR_SYSTEM_DOWN',
    ] as const)
      expect(needsPolling([row({ caseStatus })]), caseStatus).toBe(false);
    expect(needsPolling([])).toBe(false);
  });
});

describe('opensOnCounter: a dashboard counter opens the list on what it counted', () => {
  it('a Billing Review counter or Needs attention: the remembered filters stay out of this visit', () => {
    expect(opensOnCounter(initialBillingState({ billingReviewStatus: 'REVIEW_COMPLETE' }))).toBe(true);
    expect(opensOnCounter(initialBillingState({ needsAttention: true }))).toBe(true);
  });
  it('the menu (no navigation state): the remembered filters apply', () => {
    expect(opensOnCounter(initialBillingState(null))).toBe(false);
    expect(opensOnCounter(initialBillingState({ from: 'home' }))).toBe(false);
  });
});
