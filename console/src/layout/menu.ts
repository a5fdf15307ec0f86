import { STORAGE_KEYS } from '../providers/storage';

/** The top menu (spec 3 section 2.2), each entry shown only with its VIEW_{NAME}_PAGE permission (Audit: VIEW_AUDIT_TRAIL). */
export const MENU = [
  { key: 'home', path: '/home', permission: 'VIEW_HOME_PAGE', also: ['/'] },
  { key: 'orders', path: '/orders', permission: 'VIEW_ORDERS_PAGE', also: ['/order/'] },
  { key: 'patients', path: '/patients', permission: 'VIEW_PATIENTS_PAGE', also: ['/patient/'] },
  { key: 'kits', path: '/kits', permission: 'VIEW_KITS_PAGE', also: [] },
  { key: 'tests', path: '/tests', permission: 'VIEW_TESTS_PAGE', also: ['/test/'] },
  { key: 'billing', path: '/billing', permission: 'VIEW_BILLING_PAGE', also: [] },
  { key: 'messages', path: '/messages', permission: 'VIEW_MESSAGES_PAGE', also: [] },
  { key: 'box', path: '/box', permission: 'VIEW_BOX_PAGE', also: [] },
  { key: 'users', path: '/users', permission: 'VIEW_USERS_PAGE', also: [] },
  { key: 'audit', path: '/audit', permission: 'VIEW_AUDIT_TRAIL', also: [] },
] as const;
export type MenuKey = (typeof MENU)[number]['key'];

/** The menu entry a path belongs to (detail pages belong to their list), or null. */
export function menuFor(pathname: string): MenuKey | null {
  for (const m of MENU) {
    if (pathname === m.path || pathname.startsWith(m.path + '/')) return m.key;
    if (m.also.some((p) => (p.length > 1 && p.endsWith('/') ? pathname.startsWith(p) : pathname === p)))
      return m.key;
  }
  return null;
}

export const readActiveMenu = () => localStorage.getItem(STORAGE_KEYS.activeMenu) as MenuKey | null;
export const rememberActiveMenu = (key: MenuKey) => localStorage.setItem(STORAGE_KEYS.activeMenu, key);
