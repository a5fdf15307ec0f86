/**
 * Display formats (spec 2 section 9, spec 3 section 9.1): dates MM/DD/YYYY, times hh:mm a (history
 * MM/DD/YYYY hh:mm a), phones (xxx) xxx-xxxx, text truncation with an ellipsis. Times are shown in the
 * browser's time zone. Empty or invalid input gives an empty string, never "Invalid Date".
 */
export type DateInput = Date | string | number | null | undefined;

const pad = (n: number) => String(n).padStart(2, '0');

export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** MM/DD/YYYY */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return '';
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
}

/** hh:mm a (12-hour clock, leading zero, AM/PM) */
export function formatTime(value: DateInput): string {
  const d = toDate(value);
  if (!d) return '';
  const h = d.getHours() % 12 || 12;
  return `${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** MM/DD/YYYY hh:mm a */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? `${formatDate(d)} ${formatTime(d)}` : '';
}

/** (xxx) xxx-xxxx for a 10-digit number (a leading US 1 is dropped); anything else is shown as given. */
export function formatPhone(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const raw = String(value).trim();
  let digits = raw.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10) return raw;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** Spec truncation lengths: sample names 25, list names 40, comments 30, cells 30. */
export const TRUNCATE = { sampleName: 25, listName: 40, comment: 30, cell: 30 } as const;

/** The text cut to `max` characters with "..." when longer; `truncated` says whether it was cut. */
export function truncate(text: string | null | undefined, max: number): { text: string; truncated: boolean } {
  const s = text ?? '';
  if (s.length <= max) return { text: s, truncated: false };
  return { text: `${s.slice(0, Math.max(0, max - 3)).trimEnd()}...`, truncated: true };
}
