import type { TestStatus } from '@onco/domain';
import { createdOnBetween, type DayRange } from '../../components/dayRange';

export { dayBoundary, dayOf } from '../../components/dayRange';

/**
 * Pure rules of the Tests list and Test detail screens (spec 2 sections 2.4, 2.5, 9). Product rules (status
 * options, actions, timeline) come from @onco/domain; this file shapes what the screens send and show.
 */

/** Navigation state the Tests list accepts (the home dashboard's counters send a status and a date range). */
export interface TestsNavState {
  testStatus?: string | null;
  dateRange?: { start?: number | null; end?: number | null } | null;
  from?: string;
}

/** The Ordered range (the shared day-range filter). */
export type OrderedRange = DayRange;

/** The initial status chip and Ordered range from navigation state (anything malformed is ignored). */
export function initialTestsState(state: unknown): { status: string | null; range: OrderedRange } {
  const s = (state ?? {}) as TestsNavState;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    status: typeof s.testStatus === 'string' && s.testStatus ? s.testStatus : null,
    range: { start: num(s.dateRange?.start), end: num(s.dateRange?.end) },
  };
}

/**
 * Whether the dashboard opened the list on a counter (a status or a date range): the list then shows what the
 * counter counted, without the filters remembered from earlier visits (neither applied nor overwritten).
 */
export const opensOnCounter = (initial: { status: string | null; range: OrderedRange }) =>
  initial.status !== null || initial.range.start !== null || initial.range.end !== null;

/**
 * The filter always sent: TEST_SELECTED excluded by default (spec 2 section 7: `!in(TEST_SELECTED)`), or the
 * status from navigation; the Ordered range as `between(start, end)` on createdOn (epoch milliseconds). A status
 * chosen in the Status filter replaces the default (the list's filters win over this base).
 */
export function testsBaseFilter(status: string | null, range: OrderedRange): Record<string, unknown> {
  const out: Record<string, unknown> = { status: status ? [status] : '!in(TEST_SELECTED)' };
  return { ...out, ...createdOnBetween(range) };
}

/**
 * MM/DD/YYYY (the spec's due date format) to YYYY-MM-DD, or null when it is not a real date.
 */
export function usDateToDay(text: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(yyyy, mm - 1, dd));
  if (d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return `${m[3]}-${m[1]}-${m[2]}`;
}

/** YYYY-MM-DD to MM/DD/YYYY ('' when none). */
export function dayToUs(day: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? '');
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '';
}

/**
 * Where a LIMS project id links (VIEW_LIMS_INFORMATION): the LIMS's project page. The address comes from the
 * build (VITE_LIMS_PROJECT_URL, `{id}` replaced); decision: without it the link opens the lab's LIMS search.
 */
export function limsUrl(limsProjectId: string, template?: string): string {
  const t = template || 'https://lims.oncotrf.local/projects/{id}';
  return t.replace('{id}', encodeURIComponent(limsProjectId));
}

/** Statuses shown with an accent in the list (done, cancelled, waiting on something). */
export function statusTone(status: TestStatus): 'success' | 'error' | 'warning' | 'info' | 'default' {
  if (status === 'REPORT_COMPLETE' || status === 'REPORT_AMENDED' || status === 'TNP_REPORT_COMPLETE')
    return 'success';
  if (status === 'CANCELLED') return 'error';
  if (status.endsWith('_AWAITING') || status === 'TNP_AWAITING_REPLACEMENT') return 'warning';
  if (status === 'IN_PROGRESS') return 'info';
  return 'default';
}
