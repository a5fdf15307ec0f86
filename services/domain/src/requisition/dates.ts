/**
 * Calendar-date helpers for the requisition rules. Dates are 'YYYY-MM-DD' text (no time zone, the stored
 * shape); the clock is always passed in as `today`. Pure string/number arithmetic, no Date time zones.
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

export const MIN_DATE = '1900-01-01';
/** Spec 1 section 5: more than 150 years back is 'Invalid date'. */
export const MAX_AGE_YEARS = 150;

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of month `m` (1-12) of year `y`, proleptic Gregorian (as Date.UTC counts them). */
function daysInMonth(y: number, m: number): number {
  if (m !== 2) return MONTH_DAYS[m - 1];
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
}

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

function build(y: number, m: number, d: number): string | null {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/** The digit at `i` of `s` (0-9), or -1. */
const digit = (s: string, i: number) => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
};

/**
 * A real calendar date in 'YYYY-MM-DD' form, or null. The common case (already 'YYYY-MM-DD', as stored and as
 * a manifest's rows carry it, ~100,000 a file) is read digit by digit and returned as it is, without a regex or
 * a new string; anything else goes through the pattern.
 */
export function parseIsoDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.length === 10 && value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45) {
    const y0 = digit(value, 0),
      y1 = digit(value, 1),
      y2 = digit(value, 2),
      y3 = digit(value, 3),
      m0 = digit(value, 5),
      m1 = digit(value, 6),
      d0 = digit(value, 8),
      d1 = digit(value, 9);
    if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0) return null;
    const y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    const m = m0 * 10 + m1;
    const d = d0 * 10 + d1;
    return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) ? value : null;
  }
  const m = ISO.exec(value.trim());
  return m ? build(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export function isIsoDate(value: unknown): value is string {
  return parseIsoDate(value) !== null && String(value).trim() === value;
}

/** Billing dates are typed as MM/DD/YYYY (spec 1 section 5): returns 'YYYY-MM-DD' or null. */
export function parseBillingDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = US.exec(value.trim());
  return m ? build(Number(m[3]), Number(m[1]), Number(m[2])) : null;
}

/** 'YYYY-MM-DD' -> 'MM/DD/YYYY' (the display format). Returns the input unchanged when it is not a date. */
export function formatDisplayDate(iso: string): string {
  const m = ISO.exec(iso);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : iso;
}

export function addDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Calendar months; the day is clamped to the target month's length (2024-03-31 - 1 month = 2024-02-29). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const ty = Math.floor(total / 12);
  const tm = (total % 12) + 1;
  return `${pad(ty, 4)}-${pad(tm)}-${pad(Math.min(d, daysInMonth(ty, tm)))}`;
}

export function addYears(iso: string, years: number): string {
  return addMonths(iso, years * 12);
}

export interface DateWindow {
  /** earliest allowed 'YYYY-MM-DD' (inclusive) */
  min: string;
  /** latest allowed 'YYYY-MM-DD' (inclusive) */
  max: string;
}

export interface DateWindows {
  /** date of birth: 1900-01-01 .. today */
  dateOfBirth: DateWindow;
  /** date of diagnosis: 1900-01-01 .. today (not in the future) */
  dateOfDiagnosis: DateWindow;
  /** tumor collection: 18 years back .. today */
  tumorCollection: DateWindow;
  /** blood/normal collection: 10 days back for BLOOD (2022-01-01 otherwise) .. 3 months ahead */
  bloodCollection(specimenType: string | null | undefined): DateWindow;
  /** billing dates (insured date of birth, discharge date): 1900-01-01 .. today */
  billing: DateWindow;
  /** the Subsequent Order dialog's collection date: 3 months back .. 3 months ahead */
  subsequentOrderCollection: DateWindow;
}

/** Spec 1 sections 5 and 9: every date window of the requisition, for a given `today`. */
export function dateWindows(today: string): DateWindows {
  const past = { min: MIN_DATE, max: today };
  return {
    dateOfBirth: past,
    dateOfDiagnosis: past,
    tumorCollection: { min: addYears(today, -18), max: today },
    bloodCollection: (specimenType) => ({
      min: specimenType === 'BLOOD' ? addDays(today, -10) : '2022-01-01',
      max: addMonths(today, 3),
    }),
    billing: past,
    subsequentOrderCollection: { min: addMonths(today, -3), max: addMonths(today, 3) },
  };
}
