import type { Address, ProviderSnapshot } from '../../models/requisition';
import { escapeHtml, label } from '../form-html';

/** The filled form's values as printed text: dates and times, the diagnosis path, codes, names, addresses. */

/** a value escaped for print ('' for null and undefined) */
export const e = (v: unknown): string => (v === null || v === undefined ? '' : escapeHtml(String(v)));
/** an enumeration value's label, escaped */
export const lbl = (v: string | null | undefined): string => (v ? escapeHtml(label(v)) : '');

/** 'YYYY-MM-DD' (calendar date) or a Date as MM/DD/YYYY (spec 1 section 9: date display MM/DD/YYYY). */
export function formatDate(v: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (!v) return '';
  if (typeof v === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
    return m ? `${m[2]}/${m[3]}/${m[1]}` : v;
  }
  const p = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(v);
  const get = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${get('month')}/${get('day')}/${get('year')}`;
}

/** A Date as 'MM/DD/YYYY hh:mm AM' in the time zone (spec: time hh:mm a). */
export function formatDateTime(v: Date | string | null | undefined, timeZone = 'UTC'): string {
  if (!v) return '';
  const d = typeof v === 'string' ? new Date(v) : v;
  if (Number.isNaN(d.getTime())) return '';
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).format(d);
  return `${formatDate(d, timeZone)} ${time} ${timeZone === 'UTC' ? 'UTC' : ''}`.trim();
}

/** The stored diagnosis path (JSON text of [{name, code}] or a plain string) as 'Name (CODE) -> ...'. */
export function breadcrumbText(raw: string | null | undefined): string {
  if (!raw) return '';
  try {
    const v = JSON.parse(raw) as unknown;
    if (Array.isArray(v)) {
      return v
        .map((x) =>
          x && typeof x === 'object'
            ? `${(x as any).name ?? ''}${(x as any).code ? ` (${(x as any).code})` : ''}`.trim()
            : String(x),
        )
        .filter(Boolean)
        .join(' -> ');
    }
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as any).octDxBreadCrumb === 'string')
      return (v as any).octDxBreadCrumb;
  } catch {
    // plain text
  }
  return raw;
}

/** The ICD-10 codes of the tumor specimen (comma-separated text) as a list, in entry order, distinct. */
export function icd10List(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return [
    ...new Set(
      raw
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ];
}

export const yesNo = (v: boolean | null | undefined) => (v === true ? 'Yes' : v === false ? 'No' : '');
export const personName = (p: ProviderSnapshot | null | undefined) =>
  p ? p.name || [p.lastName, p.firstName].filter(Boolean).join(', ') : '';
export const addressText = (a: Address | null | undefined) =>
  a
    ? [a.street, [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')]
        .filter(Boolean)
        .join(', ')
    : '';
