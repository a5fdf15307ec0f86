import { useCallback, useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { useCustomMethods } from '../../../../components';
import { interpolate, lookupMessage } from '../../../../components/messages';
import { sampleMethods } from './api';
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

const fallback = sampleMethods();

/** The sample methods: the app data provider's when it spreads sampleMethods in, else the session client's. */
export function useSampleMethods() {
  const methods = useCustomMethods(fallback);
  return useMemo(() => methods, [methods]);
}
