/**
 * The app's messages (./index) for unit tests, which run in node: the i18n module reads the saved language when it
 * loads, so a stand-in for the browser's storage (and navigator) is put in place first. Tests only.
 */
const store = new Map<string, string>();
globalThis.localStorage ??= {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => void store.set(k, v),
} as Storage;
if (!('navigator' in globalThis)) Object.assign(globalThis, { navigator: { language: 'en-US' } });

export const { messages } = await import('./index');
