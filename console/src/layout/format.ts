/** Dates as the product shows them (spec 3 section 9.1): MM/DD/YYYY, hh:mm a. */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatDate(ms: number | string | Date): string {
  const d = new Date(ms);
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
}

export function formatTime(ms: number | string | Date): string {
  const d = new Date(ms);
  const h = d.getHours() % 12 || 12;
  return `${pad(h)}:${pad(d.getMinutes())} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

export function formatDateTime(ms: number | string | Date): string {
  return `${formatDate(ms)} ${formatTime(ms)}`;
}

/** The weekday and date, in the user's language: "Saturday, 11/21/2026". */
export function formatDay(ms: number, locale: string): string {
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(new Date(ms));
  return `${weekday}, ${formatDate(ms)}`;
}

/** The short name of the browser's time zone (PST, GMT+8...). */
export function timeZoneName(ms: number, locale: string): string {
  const part = new Intl.DateTimeFormat(locale === 'zh-CN' ? 'en-US' : locale, { timeZoneName: 'short' })
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? '';
}
