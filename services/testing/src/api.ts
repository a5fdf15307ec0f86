import type { System } from '@onco/server';
import { login } from './system';

/** The bearer header of a signed-in user. */
export type Auth = { authorization: string };

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sign a user in through the API: its bearer header. */
export async function authOf(sys: System, user: { loginId: string }): Promise<Auth> {
  return { authorization: (await login(sys, user.loginId)).authorization };
}

/** Sign each user in through the API, one after another: their bearer headers under the same keys. */
export async function signIn<K extends string>(
  sys: System,
  users: Record<K, { loginId: string }>,
): Promise<Record<K, Auth>> {
  const h = {} as Record<K, Auth>;
  for (const k of Object.keys(users) as K[]) h[k] = await authOf(sys, users[k]);
  return h;
}

/**
 * `call(method, url, headers?, payload?)`: one request to the system's API (inject), `payload` its JSON body
 * when given. The system is read at each call: a file assigns its own in `beforeAll`.
 */
export function api(sys: () => System) {
  return (method: Method, url: string, headers?: Auth | Record<string, string>, payload?: unknown) =>
    sys().app.inject({
      method,
      url,
      ...(headers === undefined ? {} : { headers }),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** `call(method, url, who?, payload?)`: `api`, as the signed-in user `who` of `h` (no session without one). */
export function apiAs<K extends string>(sys: () => System, h: Partial<Record<K, Auth>>) {
  const call = api(sys);
  return (method: Method, url: string, who?: K, payload?: unknown) =>
    call(method, url, who === undefined ? undefined : h[who], payload);
}

/**
 * `call(method, url, payload?)`: `api`, always as the signed-in user of header `auth` (an object the file may
 * fill later, in `beforeAll`, as `h` for apiAs).
 */
export function apiWith(sys: () => System, auth: Auth) {
  const call = api(sys);
  return (method: Method, url: string, payload?: unknown) => call(method, url, auth, payload);
}
