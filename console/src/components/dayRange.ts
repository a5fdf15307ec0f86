/**
 * A range of calendar days picked in two date inputs (the Ordered / Created filters of the tests, patients and
 * Attachment Box lists), held as epoch milliseconds: the start of the first day, the end of the last.
 */
export interface DayRange {
  start: number | null;
  end: number | null;
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

/** The range as a list filter on createdOn (`between(start, end)`, epoch milliseconds); {} when open. */
export function createdOnBetween(range: DayRange): Record<string, unknown> {
  return range.start !== null || range.end !== null
    ? { createdOn: `between(${range.start ?? 0},${range.end ?? 8_640_000_000_000_000})` }
    : {};
}
