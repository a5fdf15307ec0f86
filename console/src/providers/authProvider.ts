import type { AuthProvider } from 'react-admin';

/** The session key in local storage (spec 3 section 3). */
export const SESSION_KEY = 'oncotrf.session';

export interface Session {
  id: string;
  token: string;
  role: string;
  firstName: string;
  lastName: string;
  loginId: string;
  grantedAuthorities: string[];
}

export function readSession(): Session | null {
  try {
    return JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null');
  } catch {
    return null;
  }
}

const b64 = (s: string) => btoa(unescape(encodeURIComponent(s)));

export const authProvider: AuthProvider = {
  async login({ username, password }) {
    const res = await fetch('/uam/api/v1/authenticate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: b64(String(username).trim()), password: b64(password) }),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(body.message);
    localStorage.setItem(SESSION_KEY, JSON.stringify(body));
  },
  async logout() {
    localStorage.removeItem(SESSION_KEY);
  },
  async checkAuth() {
    if (!readSession()) throw new Error('no session');
  },
  async checkError(error) {
    if (error?.status === 401) {
      localStorage.removeItem(SESSION_KEY);
      throw new Error('session expired');
    }
  },
  async getPermissions() {
    return readSession()?.grantedAuthorities ?? [];
  },
  async getIdentity() {
    const s = readSession();
    if (!s) throw new Error('no session');
    return { id: s.id, fullName: `${s.firstName} ${s.lastName.slice(0, 1)}.` };
  },
};
