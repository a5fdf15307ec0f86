import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import englishMessages from 'ra-language-english';
import { STORAGE_KEYS } from '../providers/storage';
import { appEn } from './en';
import { appZh } from './zh';
import { raZh } from './ra.zh';
import { listsEn, listsZh } from './lists';
import { homeEn, homeZh } from '../pages/home/i18n';
import { ordersEn, ordersZh } from '../resources/orders/list/i18n';
import { wizardEn, wizardZh } from '../resources/orders/wizard/i18n';
import { reportsEn, reportsZh } from '../resources/test-orders/reportsI18n';
import { testsEn, testsZh } from '../resources/test-orders/i18n';
import { samplesEn, samplesZh } from '../resources/orders/summary/samples/i18n';
import { timelineEn, timelineZh } from '../resources/orders/timeline/i18n';
import { mergeEn, mergeZh } from '../resources/orders/merge/i18n';
import { billingEn, billingZh } from '../resources/billing/i18n';
import { patientsEn, patientsZh } from '../resources/patients/i18n';
import { boxEn, boxZh } from '../resources/box/i18n';
import { kitsEn, kitsZh } from '../resources/kits/i18n';
import { messagesEn, messagesZh } from '../resources/messages/i18n';

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

export const messages: Record<Locale, Messages> = {
  en: merge(
    englishMessages,
    appEn,
    listsEn,
    homeEn,
    ordersEn,
    wizardEn,
    testsEn,
    timelineEn,
    samplesEn,
    mergeEn,
    reportsEn,
    billingEn,
    patientsEn,
    boxEn,
    kitsEn,
    messagesEn,
  ),
  // every key the Chinese texts lack falls back to its English text
  'zh-CN': merge(
    englishMessages,
    appEn,
    listsEn,
    homeEn,
    ordersEn,
    wizardEn,
    testsEn,
    timelineEn,
    samplesEn,
    mergeEn,
    reportsEn,
    billingEn,
    patientsEn,
    boxEn,
    kitsEn,
    messagesEn,
    raZh,
    appZh,
    listsZh,
    homeZh,
    ordersZh,
    wizardZh,
    testsZh,
    timelineZh,
    samplesZh,
    mergeZh,
    reportsZh,
    billingZh,
    patientsZh,
    boxZh,
    kitsZh,
    messagesZh,
  ),
};

/** The language kept in local storage, else the browser's, else English. */
export function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEYS.locale);
  if (saved === 'en' || saved === 'zh-CN') return saved;
  return navigator.language?.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

export const i18nProvider = polyglotI18nProvider(
  (locale) => (messages[locale as Locale] ?? messages.en) as TranslationMessages,
  initialLocale(),
  [...LOCALES],
);
