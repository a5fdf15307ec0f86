import { STORAGE_KEYS, readJson, writeJson } from './storage';

/** The session as the authenticate call returns it (spec 3 section 3). */
export interface Session {
  id: string;
  token: string;
  role: string;
  firstName: string;
  lastName: string;
  loginId: string;
  email?: string;
  expiresOn?: string;
  grantedAuthorities: string[];
  additionalProperties?: { status?: string };
}

export const readSession = (): Session | null => {
  const s = readJson<Session>(STORAGE_KEYS.session);
  return s && typeof s.token === 'string' ? s : null;
};
export const writeSession = (s: Session) => writeJson(STORAGE_KEYS.session, s);
export const clearSession = () => localStorage.removeItem(STORAGE_KEYS.session);

/** Remember where the user was, so signing in again returns there. */
export function rememberLocation() {
  const { pathname, search } = window.location;
  if (['/login', '/forgot-password', '/reset-password', '/tac'].includes(pathname)) return;
  localStorage.setItem(STORAGE_KEYS.redirect, pathname + search);
}

/** The remembered location (once), or '/'. */
export function takeRedirect(): string {
  const to = localStorage.getItem(STORAGE_KEYS.redirect);
  localStorage.removeItem(STORAGE_KEYS.redirect);
  return to && to.startsWith('/') && !to.startsWith('//') ? to : '/';
}

/** First name plus last initial, as the profile menu shows it. */
export const shortName = (s: Pick<Session, 'firstName' | 'lastName'>) =>
  `${s.firstName} ${s.lastName ? s.lastName.slice(0, 1) + '.' : ''}`.trim();

/** base64 of UTF-8 text (the login and password payloads are base64-encoded). */
export const b64 = (s: string) => {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  bytes.forEach((b) => (bin += String.fromCharCode(b)));
  return btoa(bin);
};

/** Spec 3 section 6: a user counts as an NPI provider when the stored role is ROLE_NPI, and when no session exists. */
export function isNpiProvider(): boolean {
  const s = readSession();
  return !s || s.role === 'ROLE_NPI';
}
