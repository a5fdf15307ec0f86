import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { interpolate, lookupMessage } from '../../components/messages';
import { testsEn } from './i18n';

/** react-admin's translate with the Tests screens' English texts as the default. */
export function useTestsT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, {
        ...values,
        _: typeof values._ === 'string' ? values._ : interpolate(lookupMessage(testsEn, key) ?? key, values),
      }),
    [translate],
  );
}
