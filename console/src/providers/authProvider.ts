import type { AuthProvider } from 'react-admin';
import { API, MSG } from '@onco/domain';
import { request } from './http';
import { STORAGE_KEYS } from './storage';
import {
  b64,
  clearSession,
  readSession,
  rememberLocation,
  shortName,
  takeRedirect,
  writeSession,
  type Session,
} from './session';

export { readSession, type Session } from './session';

/**
 * A failed login: `locked` when the account is locked out (spec 3 sections 4.5 and 8); `retryAfterSeconds` when
 * this address made too many attempts (429, docs/decisions.md "Rate limits").
 */
export class LoginError extends Error {
  constructor(
    message: string,
    public readonly locked: boolean,
    public readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** The error data carries the reason; additionalProperties.status may be LOCKED_OUT (spec 3 section 7.1). */
function isLocked(body: any): boolean {
  return [
    body?.reason,
    body?.details?.reason,
    body?.additionalProperties?.status,
    body?.details?.additionalProperties?.status,
  ].includes('LOCKED_OUT');
}

/**
 * Sign-in and session (spec 3 sections 2.3, 4.5, 7.1): the authenticate call, the session in local storage under
 * one key, a 401 on any other call ends the session and remembers the page, permissions from grantedAuthorities.
 */
/**
 * The queue dashboard's cookie (HttpOnly: only the server can remove it) goes with the sign-in, so the dashboard
 * does not stay open in this browser after Log out. Best effort: a failure leaves it to expire (at most with the
 * sign-in's own expiry).
 */
function closeQueueBoard() {
  void fetch(`${API.portal}/operations/queueBoard`, { method: 'DELETE' }).catch(() => undefined);
}

/**
 * Sign out on the server too: the token is refused from then on by every server process, not only forgotten here
 * (docs/decisions.md "Token revocation in every process"). Best effort: a token the server no longer takes (a 401
 * that ends the session) is refused anyway, and one not revoked expires with the sign-in.
 */
function revokeToken() {
  const token = readSession()?.token;
  if (!token) return;
  void fetch(`${API.uam}/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).catch(
    () => undefined,
  );
}

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    let session: Session;
    try {
      session = await request<Session>(`${API.uam}/authenticate`, {
        method: 'POST',
        body: { username: b64(String(username).trim()), password: b64(String(password)) },
        skipLogout: true,
      });
    } catch (e: any) {
      // too many attempts from here: the server says how long to wait (not "wrong password": it may be right)
      if (e?.status === 429)
        throw new LoginError(
          String(e?.body?.message ?? 'Too many attempts'),
          false,
          Math.max(1, Number(e?.body?.details?.retryAfterSeconds) || 60),
        );
      const locked = isLocked(e?.body);
      throw new LoginError(locked ? MSG.locked : MSG.authFailed, locked);
    }
    if (session.additionalProperties?.status === 'LOCKED_OUT') throw new LoginError(MSG.locked, true);
    writeSession(session);
    return { redirectTo: takeRedirect() };
  },
  async logout() {
    revokeToken();
    clearSession();
    closeQueueBoard();
    return '/login';
  },
  async checkAuth() {
    if (!readSession()) {
      rememberLocation();
      throw { message: false, redirectTo: '/login' };
    }
  },
  async checkError(error: any) {
    if (error?.status === 401 && !error?.skipLogout) {
      rememberLocation();
      clearSession();
      closeQueueBoard();
      throw { message: MSG.unauthorized, redirectTo: '/login' };
    }
  },
  async getPermissions() {
    return readSession()?.grantedAuthorities ?? [];
  },
  async getIdentity() {
    const s = readSession();
    if (!s) throw new Error('no session');
    return { id: s.id, fullName: shortName(s) };
  },
};

/**
 * After the user changed their own password the server ends every session (tokenVersion); sign in again with
 * the new password so the one in this browser goes on.
 */
export async function renewSession(loginId: string, password: string) {
  const session = await request<Session>(`${API.uam}/authenticate`, {
    method: 'POST',
    body: { username: b64(loginId), password: b64(password) },
    skipLogout: true,
  });
  writeSession(session);
}

/** Log out as the profile menu does: forget the active menu and the language too (spec 3 section 2.2). */
export function clearUserPreferences() {
  localStorage.removeItem(STORAGE_KEYS.activeMenu);
  localStorage.removeItem(STORAGE_KEYS.locale);
}
