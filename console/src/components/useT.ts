import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { englishText, interpolate, lookupMessage } from './messages';

/**
 * react-admin's translate with this folder's English text as the default, so the building blocks read well
 * even where the app's i18n provider has not merged lists.en.ts / lists.zh.ts.
 */
export function useT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, { ...values, _: englishText(key, values) }),
    [translate],
  );
}

/**
 * react-admin's translate with a screen's own English texts (`en`, keyed like the app's messages) as the default,
 * for screens whose texts live beside them (tests, timeline, merge, billing, reports).
 */
export function useMessagesT(en: Record<string, unknown>) {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, { ...values, _: interpolate(lookupMessage(en, key) ?? key, values) }),
    [translate, en],
  );
}
