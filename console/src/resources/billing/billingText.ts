import { useMessagesT } from '../../components';
import { billingEn } from './i18n';

export const useBillingT = () => useMessagesT(billingEn);

/** The server's error details of a failed call, else its message, else `fallback`. */
export const errText = (e: unknown, fallback: string) => {
  const body = (e as { body?: { details?: { errorDetails?: string }; errorDetails?: string } })?.body;
  return body?.errorDetails || body?.details?.errorDetails || (e as Error)?.message || fallback;
};
