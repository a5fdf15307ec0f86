import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, PERMISSIONS } from '@onco/domain';
import { readMailbox, SEARCH_TEXT_CONTROL_CHARACTER } from '@onco/platform';
import { createTestSystem, sharedTestSystem, createUser, login } from '@onco/testing';
import { identityModels } from './models/user';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;
let sys: Sys;
let accountA: { id: string; name: string };
let accountB: { id: string; name: string };
let portalAdmin: string;
let hospitalAdminA: string;
let npiA: string;

beforeAll(async () => {
  sys = await sharedTestSystem();
  const accounts = sys.ctx.mongo.collection('accounts');
  accountA = { id: `acc-a-${sys.suffix}`, name: 'Account A' };
  accountB = { id: `acc-b-${sys.suffix}`, name: 'Account B' };
  await accounts.insertMany([
    // accountId is unique (the accounts model's index): every account has its own, as in MongoDB
    { _id: accountA.id as any, accountId: accountA.id, name: accountA.name, deleted: false },
    { _id: accountB.id as any, accountId: accountB.id, name: accountB.name, deleted: false },
  ]);
  portalAdmin = (await login(sys, (await createUser(sys, 'ROLE_PORTAL_ADMIN')).loginId)).authorization;
  hospitalAdminA = (
    await login(sys, (await createUser(sys, 'ROLE_HOSPITAL_ADMIN', { account: accountA })).loginId)
  ).authorization;
  npiA = (await login(sys, (await createUser(sys, 'ROLE_NPI', { account: accountA })).loginId)).authorization;
  await createUser(sys, 'ROLE_NPI', { account: accountB });
  await createUser(sys, 'ROLE_OBSERVER', {
    account: accountB,
    status: 'INACTIVE',
    authenticationProvider: 'ACTIVE_DIRECTORY',
  });
});
afterAll(async () => {
  await sys?.close();
});

describe('the route guard', () => {
  it('every route declares a permission or is public (start-up refuses otherwise)', () => {
    const routes = sys.app.printRoutes({ commonPrefix: false });
    expect(routes).toContain('/portal/api/v1/users');
  });

  it('a route without its permission is a 403', async () => {
    const res = await sys.app.inject({ url: '/portal/api/v1/users', headers: { authorization: npiA } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const create = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: npiA },
      payload: {
        loginId: 'x.y.z',
        email: 'x@y.org',
        firstName: 'X',
        lastName: 'Y',
        role: 'ROLE_PATIENT',
        account: accountA.id,
      },
    });
    expect(create.statusCode).toBe(403);
  });

  it('grantedAuthorities come from the matrix and only name known permissions', async () => {
    const res = await sys.app.inject({ url: '/uam/api/v1/session', headers: { authorization: portalAdmin } });
    for (const p of res.json().grantedAuthorities) expect(PERMISSIONS).toContain(p);
    expect(res.json().grantedAuthorities).toContain('CAN_MANAGE_USERS');
  });
});

describe('users list', () => {
  it('a search text with a NUL (any control character) is a 400 on the real store, not a 500 (users and clinicians)', async () => {
    for (const path of ['/portal/api/v1/users', '/uam/api/v1/clinicians'])
      for (const query of [
        `q=${encodeURIComponent('smi\u0000th')}`,
        'q=smi%00th',
        `q=${encodeURIComponent('smi\tth')}`,
        `filter=${encodeURIComponent(JSON.stringify({ q: 'smi\u0000th' }))}`,
      ]) {
        const res = await sys.app.inject({
          url: `${path}?${query}`,
          headers: { authorization: portalAdmin },
        });
        expect(res.statusCode, `${path}?${query}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ message: SEARCH_TEXT_CONTROL_CHARACTER, details: { field: 'q' } });
      }
  });

  it('a filter value with a NUL is a 400 naming the field (users and clinicians)', async () => {
    for (const path of ['/portal/api/v1/users', '/uam/api/v1/clinicians'])
      for (const filter of [{ lastName: 'smi\u0000th' }, { status: 'in(ACTIVE,ACT\u0000IVE)' }]) {
        const res = await sys.app.inject({
          url: `${path}?filter=${encodeURIComponent(JSON.stringify(filter))}`,
          headers: { authorization: portalAdmin },
        });
        expect(res.statusCode, `${path} ${JSON.stringify(filter)}: ${res.body}`).toBe(400);
        const field = Object.keys(filter)[0];
        expect(res.json()).toMatchObject({
          message: `Invalid filter value for ${field}: it contains a control character (such as NUL); remove it`,
          details: { field },
        });
      }
  });

  it('lists with facets in the spec dialect', async () => {
    const res = await sys.app.inject({
      url: '/portal/api/v1/users?page=0&size=50&facets=status_facet,role_label_facet,location_facet,account_facet',
      headers: { authorization: portalAdmin },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(body.content.length);
    expect(body.totalElements).toBeGreaterThanOrEqual(5);
    expect(body.content[0]).not.toHaveProperty('passwordHash');
    const names = body.facets.map((f: any) => f.name);
    expect(names).toEqual(['status_facet', 'role_label_facet', 'location_facet', 'account_facet']);
    const status = body.facets.find((f: any) => f.name === 'status_facet');
    expect(status.items).toContainEqual({ value: 'INACTIVE', count: 1 });
    const roles = body.facets.find((f: any) => f.name === 'role_label_facet');
    expect(roles.items).toContainEqual({ value: 'ROLE_NPI', count: 2, label: 'NPI Provider' });
    const facets = await sys.app.inject({
      url: '/portal/api/v1/users/facets',
      headers: { authorization: portalAdmin },
    });
    expect(facets.json().content.map((f: any) => f.name)).toEqual(names);
  });

  it('filters with in(...) and answers ra-data-simple-rest with an array and Content-Range', async () => {
    const res = await sys.app.inject({
      url: `/portal/api/v1/users?filter=${encodeURIComponent(JSON.stringify({ role: 'in(ROLE_NPI)' }))}`,
      headers: { authorization: portalAdmin },
    });
    expect(res.json().content.map((u: any) => u.role.name)).toEqual(['ROLE_NPI', 'ROLE_NPI']);
    const simple = await sys.app.inject({
      url: `/portal/api/v1/users?sort=${encodeURIComponent('["lastName","ASC"]')}&range=${encodeURIComponent('[0,1]')}&filter=${encodeURIComponent('{"role":["ROLE_NPI","ROLE_OBSERVER"]}')}`,
      headers: { authorization: portalAdmin },
    });
    expect(simple.statusCode).toBe(200);
    expect(Array.isArray(simple.json())).toBe(true);
    expect(simple.json()).toHaveLength(2);
    expect(simple.headers['content-range']).toBe('users 0-1/3');
  });

  it('refuses bad filters and operator injection with a 400', async () => {
    for (const filter of ['{"passwordHash":"x"}', '{"status":{"$ne":null}}', '{"$where":"1"}']) {
      const res = await sys.app.inject({
        url: `/portal/api/v1/users?filter=${encodeURIComponent(filter)}`,
        headers: { authorization: portalAdmin },
      });
      expect(res.statusCode, filter).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
  });

  it("a hospital admin sees only their account's users; another account's user is a 404", async () => {
    const res = await sys.app.inject({
      url: '/portal/api/v1/users?size=100',
      headers: { authorization: hospitalAdminA },
    });
    const accounts = new Set(res.json().content.map((u: any) => u.account?.id));
    expect([...accounts]).toEqual([accountA.id]);
    const { User } = identityModels(sys.ctx.mongo);
    const other = await User.findOne({ 'account.id': accountB.id }).lean();
    const get = await sys.app.inject({
      url: `/portal/api/v1/users/${other!._id}`,
      headers: { authorization: hospitalAdminA },
    });
    expect(get.statusCode).toBe(404);
    const act = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${other!._id}/deactivate`,
      headers: { authorization: hospitalAdminA },
    });
    expect(act.statusCode).toBe(404);
  });
});

describe('creating and acting on users', () => {
  const newUser = (role: string, account?: string) => ({
    loginId: `new.${role.toLowerCase()}.${Math.random().toString(36).slice(2, 7)}`,
    email: `n${Math.random().toString(36).slice(2, 7)}@clinic.example.org`,
    firstName: 'New',
    lastName: 'Person',
    role,
    ...(account ? { account } : {}),
  });

  it('a hospital admin may add only patients, in their own account', async () => {
    const npi = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: hospitalAdminA },
      payload: newUser('ROLE_NPI', accountA.id),
    });
    expect(npi.statusCode).toBe(403);
    const other = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: hospitalAdminA },
      payload: newUser('ROLE_PATIENT', accountB.id),
    });
    expect(other.statusCode).toBe(403);
    const ok = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: hospitalAdminA },
      payload: newUser('ROLE_PATIENT', accountA.id),
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      status: 'PROVISIONED',
      role: { name: 'ROLE_PATIENT' },
      account: accountA,
      message: MSG.userAdded,
    });
  });

  it('a portal admin adds a provider who gets an activation link, and a duplicate login id is a 409', async () => {
    const body = newUser('ROLE_NPI', accountA.id);
    const res = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: portalAdmin },
      payload: body,
    });
    expect(res.statusCode).toBe(201);
    const mails = (await readMailbox(sys.config.MAILBOX_DIR)).filter((m) => m.to === body.email);
    expect(mails[0].subject).toMatch(/Activate/);
    const dup = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: portalAdmin },
      payload: { ...body, email: 'other@x.org' },
    });
    expect(dup.statusCode).toBe(409);
    const noAccount = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/users',
      headers: { authorization: portalAdmin },
      payload: newUser('ROLE_NPI'),
    });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().message).toBe('Account is required for this role');
  });

  it("actions are allowed only in the spec's states and change the status", async () => {
    const locked = await createUser(sys, 'ROLE_NPI', { account: accountA, status: 'LOCKED_OUT' });
    const unlock = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/unlock`,
      headers: { authorization: portalAdmin },
    });
    expect(unlock.statusCode).toBe(200);
    expect(unlock.json().status).toBe('ACTIVE');
    const again = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/unlock`,
      headers: { authorization: portalAdmin },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Cannot unlock a user whose status is ACTIVE.');
    const deact = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/deactivate`,
      headers: { authorization: portalAdmin },
    });
    expect(deact.json().status).toBe('INACTIVE');
    const twice = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/deactivate`,
      headers: { authorization: portalAdmin },
    });
    expect(twice.statusCode).toBe(409);
    const act = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/activate`,
      headers: { authorization: portalAdmin },
    });
    expect(act.json().status).toBe('ACTIVE');
    const bogus = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${locked._id}/promote`,
      headers: { authorization: portalAdmin },
    });
    expect(bogus.statusCode).toBe(400);
  });

  it("a deactivated user's token stops working at once", async () => {
    const u = await createUser(sys, 'ROLE_NPI', { account: accountA });
    const { authorization } = await login(sys, u.loginId);
    expect(
      (await sys.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
    ).toBe(200);
    await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${u._id}/deactivate`,
      headers: { authorization: portalAdmin },
    });
    expect(
      (await sys.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
    ).toBe(401);
  });

  it('update keeps loginId read-only and refuses a stale version with a 409', async () => {
    const u = await createUser(sys, 'ROLE_NPI', { account: accountA });
    const ok = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${u._id}`,
      headers: { authorization: portalAdmin },
      payload: { firstName: 'Renamed', version: 0 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ firstName: 'Renamed', version: 1, message: MSG.userUpdated });
    const stale = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${u._id}`,
      headers: { authorization: portalAdmin },
      payload: { firstName: 'Again', version: 0 },
    });
    expect(stale.statusCode).toBe(409);
    const login2 = await sys.app.inject({
      method: 'PUT',
      url: `/portal/api/v1/users/${u._id}`,
      headers: { authorization: portalAdmin },
      payload: { loginId: 'changed' },
    });
    expect(login2.statusCode).toBe(400);
  });
});

describe('associations and data scope', () => {
  it('a user reads their own associations; associating an account widens their scope', async () => {
    const u = await createUser(sys, 'ROLE_HOSPITAL_ADMIN', { account: accountA });
    const { authorization } = await login(sys, u.loginId);
    const before = await sys.app.inject({ url: '/portal/api/v1/users?size=100', headers: { authorization } });
    expect(before.json().content.every((x: any) => x.account?.id !== accountB.id)).toBe(true);
    const add = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/associations',
      headers: { authorization: portalAdmin },
      payload: { ownerId: u._id, type: 'ACCOUNT', accountId: accountB.id },
    });
    expect(add.statusCode).toBe(201);
    const mine = await sys.app.inject({
      url: `/portal/api/v1/associations?filter=${encodeURIComponent(JSON.stringify({ ownerId: u._id }))}`,
      headers: { authorization },
    });
    expect(mine.json().content.map((a: any) => a.account.id)).toEqual([accountB.id]);
    const after = await sys.app.inject({ url: '/portal/api/v1/users?size=100', headers: { authorization } });
    expect(after.json().content.some((x: any) => x.account?.id === accountB.id)).toBe(true);
  });
});
