import { useContext, useMemo, useRef } from 'react';
import { DataProviderContext, useDataProvider, useLogoutIfAccessDenied } from 'react-admin';

/**
 * The named custom methods, taken from the app's data provider when it has them (so its error handling and
 * logout on 401 apply), otherwise from `fallback` with the same logout-on-401 rule. The returned object keeps
 * its identity while the data provider stays the same, so it is safe in effect dependencies.
 */
export function useCustomMethods<T extends Record<string, (...args: any[]) => Promise<any>>>(fallback: T): T {
  const raw = useContext(DataProviderContext) as unknown as Record<string, unknown> | null;
  const proxy = useDataProvider() as unknown as Record<string, (...args: any[]) => Promise<any>>;
  const logoutIfAccessDenied = useLogoutIfAccessDenied();
  // react-admin's proxy and logout helper may change identity on re-renders; read the current ones at call time
  const current = useRef({ proxy, logoutIfAccessDenied });
  current.current = { proxy, logoutIfAccessDenied };
  return useMemo(() => {
    const out: Record<string, (...args: any[]) => Promise<any>> = {};
    for (const [name, fn] of Object.entries(fallback)) {
      out[name] =
        raw && typeof raw[name] === 'function'
          ? (...args) => current.current.proxy[name](...args)
          : (...args) =>
              fn(...args).catch(async (err: unknown) => {
                await current.current.logoutIfAccessDenied(err);
                throw err;
              });
    }
    return out as T;
  }, [raw, fallback]);
}
