/** Everything the console keeps in the browser's local storage, under one prefix (spec 3 sections 2.2, 3, 9.1). */
export const STORAGE_KEYS = {
  /** the signed-in session (id, loginId, names, role, token, grantedAuthorities) */
  session: 'oncotrf.session',
  /** the chosen language: 'en' or 'zh-CN' */
  locale: 'oncotrf.locale',
  /** the remembered active top-menu entry */
  activeMenu: 'oncotrf.activeMenu',
  /** Save Username on the login page */
  savedUsername: 'oncotrf.savedUsername',
  /** where to go after signing in (set when a session ends on a page) */
  redirect: 'oncotrf.redirect',
  /** filters applied per list (prefix; the list name follows) */
  listFilters: 'oncotrf.filters.',
} as const;

export function readJson<T>(key: string): T | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null') as T | null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown) {
  localStorage.setItem(key, JSON.stringify(value));
}
