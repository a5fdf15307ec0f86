import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import { STORAGE_KEYS } from '../providers/storage';
import { appEn } from './en';
import { appZh } from './zh';
import { raZh } from './ra.zh';
import { listsEn, listsZh } from './lists';

/** Supported languages (spec 3 section 9.1): English and Simplified Chinese, English the fallback. */
export const LOCALES = [
  { locale: 'en', name: 'English' },
  { locale: 'zh-CN', name: '简体中文' },
] as const;
export type Locale = (typeof LOCALES)[number]['locale'];

type Messages = Record<string, any>;
function merge(...sources: Messages[]): Messages {
  const out: Messages = {};
  for (const src of sources) {
    for (const [k, v] of Object.entries(src)) {
      out[k] = v && typeof v === 'object' && !Array.isArray(v) ? merge(out[k] ?? {}, v) : v;
    }
  }
  return out;
}

/** A screen's texts: English, and the Chinese it has (every key it lacks falls back to English). */
export interface MessageBundle {
  en: Messages;
  zh: Messages;
}

/**
 * Every text of the console by language: react-admin's, the app's and the lists', then each screen's bundle in the
 * order given. Screens hand in their bundles at the top (console/src/screens.ts), so this layer imports no screen.
 */
export function buildMessages(screens: readonly MessageBundle[]): Record<Locale, Messages> {
  return {
    en: merge(englishMessages, appEn, listsEn, ...screens.map((b) => b.en)),
    // every key the Chinese texts lack falls back to its English text
    'zh-CN': merge(
      englishMessages,
      appEn,
      listsEn,
      ...screens.map((b) => b.en),
      raZh,
      appZh,
      listsZh,
      ...screens.map((b) => b.zh),
    ),
  };
}

/** The language kept in local storage, else the browser's, else English. */
export function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEYS.locale);
  if (saved === 'en' || saved === 'zh-CN') return saved;
  return navigator.language?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

/** The console's i18n provider over the screens' bundles (see buildMessages). */
export function createI18nProvider(screens: readonly MessageBundle[]) {
  const messages = buildMessages(screens);
  return polyglotI18nProvider(
    (locale) => (messages[locale as Locale] ?? messages.en) as TranslationMessages,
    initialLocale(),
    [...LOCALES],
  );
}
