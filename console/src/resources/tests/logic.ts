import type { TestStatus } from '@onco/domain';

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

export interface OrderedRange {
  start: number | null;
  end: number | null;
}

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
 * The filter always sent: TEST_SELECTED excluded by default (spec 2 section 7: `!in(TEST_SELECTED)`), or the
 * status from navigation; the Ordered range as `between(start, end)` on createdOn (epoch milliseconds). A status
 * chosen in the Status filter replaces the default (the list's filters win over this base).
 */
export function testsBaseFilter(status: string | null, range: OrderedRange): Record<string, unknown> {
  const out: Record<string, unknown> = { status: status ? [status] : '!in(TEST_SELECTED)' };
  if (range.start !== null || range.end !== null)
    out.createdOn = `between(${range.start ?? 0},${range.end ?? 8_640_000_000_000_000})`;
  return out;
}

/** A calendar day input (YYYY-MM-DD, local) as epoch milliseconds of its start or end. */
export function dayBoundary(day: string, edge: 'start' | 'end'): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (edge === 'end') d.setHours(23, 59, 59, 999);
  return d.getTime();
}

/** Epoch milliseconds as the local calendar day YYYY-MM-DD (for a date input), '' when none. */
export function dayOf(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
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
