import { listsEn } from '../i18n/lists.en';

/** Look a dotted key up in a nested message object. */
export function lookupMessage(messages: unknown, key: string): string | undefined {
  let cur: unknown = messages;
  for (const part of key.split('.')) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === 'string' ? cur : undefined;
}

/** Replace polyglot-style %{name} placeholders. */
export function interpolate(text: string, values: Record<string, unknown> = {}): string {
  return text.replace(/%\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** The English text of a key of the building blocks (the fallback when the app's i18n does not know it). */
export function englishText(key: string, values?: Record<string, unknown>): string {
  return interpolate(lookupMessage(listsEn, key) ?? key, values);
}
