import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { interpolate, lookupMessage } from '../../../../components/messages';
import { samplesEn } from './i18n';

/** react-admin's translate with the Samples tab's English texts as the default. */
export function useSamplesT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, {
        ...values,
        _:
          typeof values._ === 'string' ? values._ : interpolate(lookupMessage(samplesEn, key) ?? key, values),
      }),
    [translate],
  );
}
