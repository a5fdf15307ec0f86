import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { englishText } from './messages';

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
