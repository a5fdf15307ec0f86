import { describe, expect, it } from 'vitest';
import {
  billingAttentionTarget,
  billingReviewTarget,
  clinicalReviewTarget,
  dashboardQuery,
  defaultRange,
  fromInputDate,
  messagesTarget,
  TEST_STATUS_BOXES,
  testStatusLabel,
  testStatusTarget,
  toInputDate,
} from './logic';

describe('home dashboard rules', () => {
  it('defaults to the start of the day three months ago through the end of today', () => {
    const now = new Date(2026, 10, 21, 14, 30);
    const r = defaultRange(now);
    expect(new Date(r.start)).toEqual(new Date(2026, 7, 21, 0, 0, 0, 0));
    expect(new Date(r.end)).toEqual(new Date(2026, 10, 21, 23, 59, 59, 999));
    expect(toInputDate(r.start)).toBe('2026-08-21');
  });

  it('reads date inputs as whole days', () => {
    expect(fromInputDate('2026-02-03', 'start')).toBe(new Date(2026, 1, 3).getTime());
    expect(fromInputDate('2026-02-03', 'end')).toBe(new Date(2026, 1, 3, 23, 59, 59, 999).getTime());
    expect(fromInputDate('2026-02-31', 'start')).toBeNull();
    expect(fromInputDate('', 'end')).toBeNull();
  });

  it('shows every test status but TEST_SELECTED, REPORT_COMPLETE as Completed', () => {
    expect(TEST_STATUS_BOXES).not.toContain('TEST_SELECTED');
    expect(TEST_STATUS_BOXES).toContain('REPORT_COMPLETE');
    expect(testStatusLabel('REPORT_COMPLETE', (v) => v)).toBe('Completed');
    expect(testStatusLabel('IN_PROGRESS', () => 'In Progress')).toBe('In Progress');
  });

  it('leads each counter to its list with navigation state', () => {
    const range = { start: 1, end: 2 };
    expect(testStatusTarget('IN_PROGRESS', 0, range)).toBeNull();
    expect(testStatusTarget('IN_PROGRESS', 3, range)).toEqual({
      to: '/tests',
      state: { testStatus: 'IN_PROGRESS', dateRange: { start: 1, end: 2 } },
    });
    expect(clinicalReviewTarget('NEEDS_REVIEW')).toEqual({
      to: '/orders',
      state: { reviewStatus: 'NEEDS_REVIEW' },
    });
    expect(billingReviewTarget('X')).toEqual({ to: '/billing', state: { billingReviewStatus: 'X' } });
    expect(billingAttentionTarget()).toEqual({ to: '/billing', state: { needsAttention: true } });
    expect(messagesTarget()).toEqual({ to: '/messages', state: { messageStatus: 'NEW' } });
    expect(dashboardQuery(range, 2)).toEqual({ from: '1', to: '2', page: '2' });
  });
});
