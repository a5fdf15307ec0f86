import { useContext, useMemo } from 'react';
import { DataProviderContext, useDataProvider, useLogoutIfAccessDenied } from 'react-admin';

/**
 * The named custom methods, taken from the app's data provider when it has them (so its error handling and
 * logout on 401 apply), otherwise from `fallback` with the same logout-on-401 rule.
 */
export function useCustomMethods<T extends Record<string, (...args: any[]) => Promise<any>>>(fallback: T): T {
  const raw = useContext(DataProviderContext) as unknown as Record<string, unknown> | null;
  const proxy = useDataProvider() as unknown as Record<string, (...args: any[]) => Promise<any>>;
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  return useMemo(() => {
    const out: Record<string, (...args: any[]) => Promise<any>> = {};
    for (const [name, fn] of Object.entries(fallback)) {
      out[name] =
        raw && typeof raw[name] === 'function'
          ? (...args) => proxy[name](...args)
          : (...args) =>
              fn(...args).catch(async (err: unknown) => {
                await logoutIfAccessDenied(err);
                throw err;
              });
    }
    return out as T;
  }, [raw, proxy, fallback, logoutIfAccessDenied]);
}
