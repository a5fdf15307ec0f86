import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, ROLE_PERMISSIONS, type Permission, type Role } from '@onco/domain';
import { createTestSystem, sharedTestSystem, createUser, login } from '@onco/testing';
import { QUEUE_BOARD_PATH } from '@onco/platform';

/**
 * The permission matrix, enforced on every route: for each route the guard knows, a request without a token
 * is a 401, and a signed-in user of a role without the route's permission is a 403.
 */
type Sys = Awaited<ReturnType<typeof createTestSystem>>;
let sys: Sys;
const tokens = new Map<Role, string>();

beforeAll(async () => {
  sys = await sharedTestSystem();
  for (const role of ROLES) {
    const u = await createUser(sys, role, { account: { id: 'acc-perm', name: 'Perm Account' } });
    tokens.set(role, (await login(sys, u.loginId)).authorization);
  }
}, 180_000);
afterAll(async () => {
  await sys?.close();
});

const concrete = (url: string) =>
  url.replace(/:(\w+)/g, (_m, name) => (name === 'action' ? 'activate' : name === 'code' ? 'TISSUE' : 'x1'));

describe('every route is guarded', () => {
  it('knows many routes, each public or with a permission', () => {
    const api = sys.app.routeGuards.filter((g) => /^\/(uam|portal|oms|bis|cns|dxs)\/api\/v1\//.test(g.url));
    expect(api.length).toBeGreaterThan(20);
    const publicOnes = api.filter((g) => g.public).map((g) => `${g.method} ${g.url}`);
    // only these may be called without a session
    for (const p of publicOnes) {
      // (closing the queue dashboard only removes this browser's cookie: a sign-out works without a valid token)
      expect(p).toMatch(
        /authenticate|password\/reset|\/maintenance$|\/standIns\/|^DELETE \/portal\/api\/v1\/operations\/queueBoard$/,
      );
    }
  });

  it('answers 401 without a token on every non-public route', async () => {
    for (const g of sys.app.routeGuards.filter((x) => !x.public && x.url.includes('/api/v1/'))) {
      const res = await sys.app.inject({
        method: g.method as any,
        url: concrete(g.url),
        payload: g.method === 'GET' || g.method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode, `${g.method} ${g.url}`).toBe(401);
    }
  });

  it("answers 403 to a role without the route's permission, on every route that needs one", async () => {
    let checked = 0;
    // (the queue dashboard's routes take its cookie, not a bearer token: queue-board.int.test.ts)
    for (const g of sys.app.routeGuards.filter(
      (x) => Array.isArray(x.permission) && !x.url.startsWith(QUEUE_BOARD_PATH),
    )) {
      const needed = g.permission as Permission[];
      const lacking = ROLES.find((r) => !needed.some((p) => ROLE_PERMISSIONS[r].includes(p)));
      if (!lacking) continue;
      const res = await sys.app.inject({
        method: g.method as any,
        url: concrete(g.url),
        headers: { authorization: tokens.get(lacking)! },
        payload: g.method === 'GET' || g.method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode, `${lacking} ${g.method} ${g.url}`).toBe(403);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('lets a role with the permission past the guard (it reaches the handler)', async () => {
    const res = await sys.app.inject({
      url: '/portal/api/v1/users',
      headers: { authorization: tokens.get('ROLE_PORTAL_ADMIN')! },
    });
    expect(res.statusCode).toBe(200);
  });
});
