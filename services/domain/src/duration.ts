/**
 * Durations as the product shows them (spec 3 section 9.1: "Durations are shown as months, weeks, days, hours,
 * minutes"): one split of an amount of time into those units, for every duration the console shows (which renders
 * the terms with its unit labels in English and Chinese: console/src/components/duration.ts).
 *
 * A month is 30 days and a week 7 (decision, docs/decisions.md "Durations"): a duration is an amount of time, not
 * a stretch of the calendar, so it reads the same whichever day it began, in every time zone. Seconds are dropped
 * (whole minutes, rounded down); a negative amount (clocks apart) reads as zero.
 */

export const DURATION_UNITS = ['months', 'weeks', 'days', 'hours', 'minutes'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
export type DurationParts = Record<DurationUnit, number>;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** each unit in milliseconds (a month is 30 days) */
export const DURATION_UNIT_MS: Readonly<Record<DurationUnit, number>> = {
  months: 30 * DAY,
  weeks: 7 * DAY,
  days: DAY,
  hours: 60 * MINUTE,
  minutes: MINUTE,
};

export interface FormattedDuration {
  /** every unit, the largest first, each the whole number left after the larger ones */
  parts: DurationParts;
  /**
   * what to show, largest first: each non-zero part from months down to `smallest`; zero is one term of 0
   * `smallest`; empty when the amount is more than zero but under one `smallest` (see `lessThan`)
   */
  terms: Array<{ unit: DurationUnit; n: number }>;
  /** the amount is more than zero and under one `smallest` ("less than a minute"), else null */
  lessThan: DurationUnit | null;
}

/**
 * Split `ms` milliseconds into months, weeks, days, hours and minutes. `smallest` is the finest unit the value
 * is known to (a test's duration is kept in whole days: 'days'); finer parts are left out of the terms.
 * Null for no value (null, undefined, NaN or infinite).
 */
export function formatDuration(
  ms: number | null | undefined,
  opts: { smallest?: DurationUnit } = {},
): FormattedDuration | null {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return null;
  const smallest = opts.smallest ?? 'minutes';
  const total = Math.max(0, Math.floor(ms));
  let rest = total;
  const parts = {} as DurationParts;
  for (const unit of DURATION_UNITS) {
    parts[unit] = Math.floor(rest / DURATION_UNIT_MS[unit]);
    rest -= parts[unit] * DURATION_UNIT_MS[unit];
  }
  const shown = DURATION_UNITS.slice(0, DURATION_UNITS.indexOf(smallest) + 1);
  const terms = shown.filter((unit) => parts[unit] > 0).map((unit) => ({ unit, n: parts[unit] }));
  if (terms.length) return { parts, terms, lessThan: null };
  if (total === 0) return { parts, terms: [{ unit: smallest, n: 0 }], lessThan: null };
  return { parts, terms: [], lessThan: smallest };
}

/** Whole days as milliseconds (a test's duration is kept in days). */
export const daysToMs = (days: number) => days * DAY;
