import { TEST_STATUSES } from '@onco/domain';

/**
 * Pure rules of the home dashboard (spec 2 section 2.1): the default date range, the Test Status boxes and where
 * each counter leads.
 */

export interface DateRange {
  /** epoch milliseconds */
  start: number;
  end: number;
}

/** Default: the start of the day three months ago through the end of today (local time). */
export function defaultRange(now = new Date()): DateRange {
  const start = new Date(now);
  start.setMonth(start.getMonth() - 3);
  start.setHours(0, 0, 0, 0);
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return { start: start.getTime(), end: end.getTime() };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** epoch ms -> 'YYYY-MM-DD' (local), the date input's value. */
export function toInputDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A date input's 'YYYY-MM-DD' as the start (00:00:00.000) or end (23:59:59.999) of that local day; null if invalid. */
export function fromInputDate(value: string, edge: 'start' | 'end'): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const d =
    edge === 'start'
      ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0)
      : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return Number.isNaN(d.getTime()) || d.getDate() !== Number(m[3]) ? null : d.getTime();
}

/** The Test Status boxes, in the lifecycle order: every test status but TEST_SELECTED. */
export const TEST_STATUS_BOXES = TEST_STATUSES.filter((s) => s !== 'TEST_SELECTED');

/** The box label key's English default: REPORT_COMPLETE is 'Completed'. */
export function testStatusLabel(status: string, enumLabel: (v: string) => string): string {
  return status === 'REPORT_COMPLETE' ? 'Completed' : enumLabel(status);
}

/** Where a counter leads, with its navigation state; null for a zero Test Status box (not clickable). */
export function testStatusTarget(
  status: string,
  count: number,
  range: DateRange,
): { to: string; state: Record<string, unknown> } | null {
  if (!count) return null;
  return { to: '/tests', state: { testStatus: status, dateRange: { start: range.start, end: range.end } } };
}

export const clinicalReviewTarget = (status: string) => ({ to: '/orders', state: { reviewStatus: status } });
export const billingReviewTarget = (status: string) => ({
  to: '/billing',
  state: { billingReviewStatus: status },
});
/** The billing list with its "Needs attention" view on (retries exhausted, rejected, update not allowed). */
export const billingAttentionTarget = () => ({ to: '/billing', state: { needsAttention: true } });
export const messagesTarget = () => ({ to: '/messages', state: { messageStatus: 'NEW' } });

/** The query of GET /portal/api/v1/dashboard. */
export function dashboardQuery(range: DateRange, page: number) {
  return { from: String(range.start), to: String(range.end), page: String(page) };
}

/** Recently Completed Tests: 8 a page (compact paging). */
export const RECENT_PER_PAGE = 8;
