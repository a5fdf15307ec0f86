import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { interpolate, lookupMessage } from '../../../components/messages';
import { ordersEn } from './i18n';
import { enumLabel } from './logic';

/** The English text of an `orders.*` key (the fallback before the app merges ordersEn / ordersZh). */
export function ordersEnglish(key: string, values?: Record<string, unknown>): string {
  return interpolate(lookupMessage(ordersEn, key) ?? key, values);
}

/** react-admin's translate with this screen's English texts as the default. */
export function useOrdersT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, {
        ...values,
        _: typeof values._ === 'string' ? values._ : ordersEnglish(key, values),
      }),
    [translate],
  );
}

/** An enumeration value in the user's language (`orders.enum.*`), else as people read it in English. */
export function useEnumLabel() {
  const t = useOrdersT();
  return useCallback(
    (v: string | null | undefined) => (v ? t(`orders.enum.${v}`, { _: enumLabel(v) }) : ''),
    [t],
  );
}
