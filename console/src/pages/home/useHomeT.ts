import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { interpolate, lookupMessage } from '../../components/messages';
import { enumLabel } from '../../resources/orders/list/logic';
import { ordersEn } from '../../resources/orders/list/i18n';
import { homeEn } from './i18n';

/** react-admin's translate with the home and orders English texts as the default. */
export function useHomeT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, {
        ...values,
        _:
          typeof values._ === 'string'
            ? values._
            : interpolate(lookupMessage(homeEn, key) ?? lookupMessage(ordersEn, key) ?? key, values),
      }),
    [translate],
  );
}

/** An enumeration value in the user's language (`orders.enum.*`), else as people read it in English. */
export function useHomeLabel() {
  const t = useHomeT();
  return (v: string) => t(`orders.enum.${v}`, { _: enumLabel(v) });
}
