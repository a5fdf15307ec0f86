import { useMessagesT, useCustomMethods } from '../../components';
import { patientMethods } from './api';
import { patientsEn } from './i18n';

const fallback = patientMethods();

/** The patients screens' texts (English defaults beside them). */
export const usePatientsT = () => useMessagesT(patientsEn);
/** The patients screens' named data-provider methods (api.ts). */
export const usePatientMethods = () => useCustomMethods(fallback);

/** The server's message of a failed call, else the fallback text. */
export function errorMessage(e: unknown, fallbackText: string): string {
  const body = (e as { body?: { message?: string } })?.body;
  return body?.message || (e as Error)?.message || fallbackText;
}

/** The server's field errors of a 400 (details.errors: field -> message), if any. */
export function fieldErrorsOf(e: unknown): Record<string, string> {
  const errors = (e as { body?: { details?: { errors?: unknown } } })?.body?.details?.errors;
  return errors && typeof errors === 'object' ? (errors as Record<string, string>) : {};
}
