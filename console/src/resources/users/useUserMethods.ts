import { useCustomMethods } from '../../components/useCustomMethods';
import { userMethods } from './api';

const fallback = userMethods();

/** The Users screen's named methods, from the app's data provider when it has them. */
export const useUserMethods = () => useCustomMethods(fallback);

/** The server's message (and the field it names) from a failed call, if any. */
export function serverError(err: unknown): { message?: string; field?: string } {
  const body = (err as any)?.body;
  const message = typeof body?.message === 'string' ? body.message : undefined;
  const field = typeof body?.details?.field === 'string' ? body.details.field : undefined;
  return { message, field };
}
