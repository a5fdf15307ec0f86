import { describe, expect, it } from 'vitest';
import { readMailbox, type InboxDoc } from '@onco/platform';
import {
  auditEntriesSince,
  b64,
  TEST_PASSWORD,
  user,
  useTestSystem,
  withAuditEntriesRefused,
} from '@onco/testing';
import { identityModels, type UserDoc } from './models/user';

/**
 * A change of a user account commits with its audit entry (docs/audit.md "Changes"), on the real store: the
 * creation, an edit, the administrators' actions (deactivate, activate, reset password, temporary password,
 * unlock), one's own password change, a reset with an e-mailed link, a lockout by sign-in failures, and the
 * accounts a user works for. Each leaves one entry of record type `user` (the user's id, no patient) naming the
 * fields changed, never a value: no password, hash or token in any entry. A refused change records nothing.
 */
const ACC_A = { id: 'acc-audit-users-a', name: 'Audit Users Clinic A' };
const ACC_B = { id: 'acc-audit-users-b', name: 'Audit Users Clinic B' };
const USERS = '/portal/api/v1/users';
const NEW_PASSWORD = 'Changed2024x';

const { sys, users, call } = useTestSystem({
  config: { LOCKOUT_THRESHOLD: '3' },
  prepare: async () => {
    await sys.ctx.mongo.collection('accounts').insertMany([
      { _id: ACC_A.id as never, accountId: ACC_A.id, name: ACC_A.name, deleted: false },
      { _id: ACC_B.id as never, accountId: ACC_B.id, name: ACC_B.name, deleted: false },
    ]);
  },
  users: {
    admin: 'ROLE_PORTAL_ADMIN',
    adminB: user('ROLE_HOSPITAL_ADMIN', { account: ACC_B }),
    member: user('ROLE_NPI', { account: ACC_A }),
    target: user('ROLE_NPI', { account: ACC_A }),
    locked: user('ROLE_NPI', { account: ACC_A }),
    signer: user('ROLE_NPI', { account: ACC_A }),
  },
  signIn: ['admin', 'adminB', 'member'],
});

/** the entries recorded since `since` (the inbox: this system runs no chainer), oldest first */
const entriesSince = (since: Date) => auditEntriesSince(sys.ctx.mongo, since);
const userDoc = async (id: string) =>
  (await identityModels(sys.ctx.mongo).User.findById(id).lean().exec()) as UserDoc;

/** No secret's value in the entries: the user's current and past hashes, the passwords, the given texts. */
async function expectNoSecrets(entries: InboxDoc[], userId: string, ...texts: string[]) {
  const text = JSON.stringify(entries);
  const doc = await userDoc(userId);
  for (const secret of [doc.passwordHash, ...(doc.passwordHistory ?? []), TEST_PASSWORD, ...texts])
    if (secret) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/\$(argon2|2[aby])\$|scrypt|pbkdf2/i);
}

describe('audit: changes of a user account commit with their entry', () => {
  it("a user's creation and an edit each leave one entry naming the fields changed", async () => {
    const since = new Date();
    const created = await call('POST', USERS, 'admin', {
      loginId: `audit.new.${Date.now()}`,
      email: 'new.person@clinic.example.org',
      firstName: 'Newton',
      lastName: 'Person',
      role: 'ROLE_NPI',
      account: ACC_A.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const edited = await call('PUT', `${USERS}/${id}`, 'admin', {
      firstName: 'Isaac',
      title: 'MD',
      version: created.json().version,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // the reply keeps the password fields out as before
    expect(edited.body).not.toContain('passwordHash');
    expect(edited.body).not.toContain('passwordHistory');

    const entries = await entriesSince(since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.what.patientId, e.action])).toEqual([
      ['user', id, null, 'create'],
      ['user', id, null, 'update'],
    ]);
    const [create, edit] = entries;
    expect(create).toMatchObject({
      who: { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' },
      onBehalfOf: [ACC_A.id],
      outcome: 'allowed',
      route: 'POST /portal/api/v1/users',
      from: { requestId: created.headers['x-request-id'] },
    });
    expect(create.changes).toEqual(
      expect.arrayContaining(['account.id', 'email', 'firstName', 'loginId', 'role', 'status']),
    );
    expect(create.changes).not.toContain('createdOn');
    expect(edit).toMatchObject({
      who: { userId: users.admin._id },
      onBehalfOf: [ACC_A.id],
      route: 'PUT /portal/api/v1/users/:id',
      changes: ['firstName', 'title'],
    });
    // never a value
    const text = JSON.stringify(entries);
    for (const value of ['Newton', 'Isaac', 'new.person@clinic', 'MD"']) expect(text).not.toContain(value);
    await expectNoSecrets(entries, id);
  });

  it('an edit refused (a stale version, outside the scope) records nothing', async () => {
    const current = await userDoc(users.target._id);
    const since = new Date();
    const stale = await call('PUT', `${USERS}/${current._id}`, 'admin', { firstName: 'X', version: 99 });
    expect(stale.statusCode).toBe(409);
    const outside = await call('PUT', `${USERS}/${current._id}`, 'adminB', { firstName: 'Y' });
    expect(outside.statusCode).toBe(404);
    const notAllowed = await call('PUT', `${USERS}/${current._id}/unlock`, 'admin');
    expect(notAllowed.statusCode).toBe(409);
    expect(await entriesSince(since)).toEqual([]);
  });

  it("an administrator's actions each leave one entry: deactivate, activate, reset, temporary password", async () => {
    const id = users.target._id;
    const since = new Date();
    for (const action of ['deactivate', 'activate', 'resetpassword', 'sendTemporaryPassword']) {
      const res = await call('PUT', `${USERS}/${id}/${action}`, 'admin');
      expect(res.statusCode, `${action}: ${res.body}`).toBe(200);
      expect(res.body).not.toContain('passwordHash');
    }
    const entries = await entriesSince(since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.what.patientId, e.action, e.changes])).toEqual([
      ['user', id, null, 'update', ['status', 'tokenVersion']],
      ['user', id, null, 'update', ['status', 'tokenVersion']],
      ['user', id, null, 'update', ['status', 'tokenVersion']],
      ['user', id, null, 'update', ['passwordHash', 'status', 'tokenVersion']],
    ]);
    for (const e of entries)
      expect(e).toMatchObject({
        who: { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' },
        onBehalfOf: [ACC_A.id],
        route: 'PUT /portal/api/v1/users/:id/:action',
      });
    // the temporary password and the reset link's token are in the mails, never in the entries
    const mails = (await readMailbox(sys.config.MAILBOX_DIR)).filter((m) => m.to === users.target.email);
    const temporary = /temporary password is: (\S+)/.exec(mails.at(-1)!.text)![1];
    const tokens = mails.map((m) => /token=([\w-]+)/.exec(m.text)?.[1]).filter(Boolean) as string[];
    expect(tokens.length).toBeGreaterThan(0);
    await expectNoSecrets(entries, id, temporary, ...tokens);
  });

  it("one's own password change leaves one entry by the user; a wrong old password records nothing", async () => {
    const id = users.member._id;
    const since = new Date();
    const wrong = await call('PUT', `/uam/api/v1/users/${id}/credentials`, 'member', {
      oldPassword: b64('NotMine123'),
      newPassword: b64(NEW_PASSWORD),
    });
    expect(wrong.statusCode).toBe(400);
    expect(await entriesSince(since)).toEqual([]);
    const changed = await call('PUT', `/uam/api/v1/users/${id}/credentials`, 'member', {
      oldPassword: b64(TEST_PASSWORD),
      newPassword: b64(NEW_PASSWORD),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const entries = await entriesSince(since);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      who: { userId: id, role: 'ROLE_NPI' },
      what: { type: 'user', id, patientId: null },
      action: 'update',
      onBehalfOf: [ACC_A.id],
      route: 'PUT /uam/api/v1/users/:id/credentials',
      from: { requestId: changed.headers['x-request-id'] },
    });
    // the names of the password fields, and the sessions ended (tokenVersion)
    expect(entries[0].changes).toEqual(['passwordHash', 'passwordHistory', 'tokenVersion']);
    await expectNoSecrets(entries, id, NEW_PASSWORD, b64(NEW_PASSWORD));
  });

  it('a lockout by sign-in failures leaves one entry, the unlock another; a reset by link one more; each sign-in its own', async () => {
    const u = users.locked;
    const signIn = (password: string) =>
      sys.app.inject({
        method: 'POST',
        url: '/uam/api/v1/authenticate',
        payload: { username: b64(u.loginId), password: b64(password) },
      });
    const since = new Date();
    expect((await signIn('Wrong1234')).statusCode).toBe(401);
    expect((await signIn('Wrong1234')).statusCode).toBe(401);
    // a failure that does not lock changes nothing but the count: only its sign-in entry
    expect((await entriesSince(since)).map((e) => e.action)).toEqual(['sign-in', 'sign-in']);
    const third = await signIn('Wrong1234');
    expect(third.json().code).toBe('LOCKED_OUT');
    expect((await signIn('Wrong1234')).json().code).toBe('LOCKED_OUT'); // already locked: its sign-in only
    const unlocked = await call('PUT', `${USERS}/${u._id}/unlock`, 'admin');
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    const reset = await call('PUT', `${USERS}/${u._id}/resetpassword`, 'admin');
    expect(reset.statusCode, reset.body).toBe(200);
    const mail = (await readMailbox(sys.config.MAILBOX_DIR)).filter((m) => m.to === u.email).at(-1)!;
    const token = /token=([\w-]+)/.exec(mail.text)![1];
    const weak = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/password/reset',
      payload: { token, newPassword: b64('weak') },
    });
    expect(weak.statusCode).toBe(400);
    const set = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/password/reset',
      payload: { token, newPassword: b64('Recovered99') },
    });
    expect(set.statusCode, set.body).toBe(200);

    const all = await entriesSince(since);
    // each of the four sign-ins refused, by `anonymous` (the one who typed is not known to be the owner)
    const signIns = all.filter((e) => e.action === 'sign-in');
    expect(signIns.map((e) => [e.who.userId, e.outcome, e.status, e.what.id, e.changes])).toEqual(
      Array(4).fill(['anonymous', 'refused', 401, u._id, null]),
    );
    expect(signIns[2].from.requestId).toBe(third.headers['x-request-id']);
    const entries = all.filter((e) => e.action !== 'sign-in');
    // the sign-in that locks and the reset by link have no session: the actor is `anonymous` (with its address)
    const adminAction = 'PUT /portal/api/v1/users/:id/:action';
    expect(entries.map((e) => [e.who.userId, e.route, e.changes])).toEqual([
      ['anonymous', 'POST /uam/api/v1/authenticate', ['failedLogins', 'status', 'tokenVersion']],
      [users.admin._id, adminAction, ['failedLogins', 'status', 'tokenVersion']],
      [users.admin._id, adminAction, ['status', 'tokenVersion']],
      [
        'anonymous',
        'POST /uam/api/v1/password/reset',
        ['passwordHash', 'passwordHistory', 'status', 'tokenVersion'],
      ],
    ]);
    expect(entries[0].from.requestId).toBe(third.headers['x-request-id']);
    for (const e of entries)
      expect(e).toMatchObject({
        what: { type: 'user', id: u._id, patientId: null },
        action: 'update',
        onBehalfOf: [ACC_A.id],
        outcome: 'allowed',
      });
    await expectNoSecrets(entries, u._id, 'Wrong1234', 'Recovered99', token);
  });

  it('the accounts a user works for: adding and removing one each leave one entry on the user', async () => {
    const owner = users.target._id;
    const since = new Date();
    const added = await call('POST', '/portal/api/v1/associations', 'admin', {
      ownerId: owner,
      type: 'ACCOUNT',
      accountId: ACC_B.id,
    });
    expect(added.statusCode, added.body).toBe(201);
    // a manager outside the user's account cannot: nothing recorded
    const refused = await call('POST', '/portal/api/v1/associations', 'adminB', {
      ownerId: owner,
      type: 'ACCOUNT',
      accountId: ACC_B.id,
    });
    expect(refused.statusCode).toBe(404);
    const removed = await call('DELETE', `/portal/api/v1/associations/${added.json().id}`, 'admin');
    expect(removed.statusCode, removed.body).toBe(200);
    const entries = await entriesSince(since);
    expect(
      entries.map((e) => [e.what.type, e.what.id, e.what.patientId, e.action, e.changes, e.route]),
    ).toEqual([
      ['user', owner, null, 'update', ['associations.account'], 'POST /portal/api/v1/associations'],
      ['user', owner, null, 'update', ['associations.account'], 'DELETE /portal/api/v1/associations/:id'],
    ]);
    for (const e of entries) {
      expect(e.who.userId).toBe(users.admin._id);
      expect(e.onBehalfOf).toEqual([ACC_A.id, ACC_B.id]);
    }
    expect(JSON.stringify(entries)).not.toContain(ACC_B.name);
  });

  it('a sign-in and a sign-out each leave an entry by the user; an unknown login id or an inactive account a refused one', async () => {
    const u = users.signer;
    const signIn = (loginId: string, password = TEST_PASSWORD) =>
      sys.app.inject({
        method: 'POST',
        url: '/uam/api/v1/authenticate',
        headers: { 'user-agent': 'audit-test/1.0' },
        payload: { username: b64(loginId), password: b64(password) },
      });
    const since = new Date();
    const ok = await signIn(u.loginId);
    expect(ok.statusCode, ok.body).toBe(200);
    const out = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/logout',
      headers: { authorization: `Bearer ${ok.json().token}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    const unknownLogin = `nobody.${Date.now()}`;
    expect((await signIn(unknownLogin)).statusCode).toBe(401);
    await identityModels(sys.ctx.mongo).User.updateOne(
      { _id: users.locked._id },
      { $set: { status: 'INACTIVE' } },
    );
    expect((await signIn(users.locked.loginId)).statusCode).toBe(401);

    const entries = await entriesSince(since);
    expect(entries.map((e) => [e.action, e.outcome, e.who.userId, e.what.id, e.status, e.route])).toEqual([
      ['sign-in', 'allowed', u._id, u._id, 200, 'POST /uam/api/v1/authenticate'],
      ['sign-out', 'allowed', u._id, u._id, 200, 'POST /uam/api/v1/logout'],
      ['sign-in', 'refused', 'anonymous', null, 401, 'POST /uam/api/v1/authenticate'],
      ['sign-in', 'refused', 'anonymous', users.locked._id, 401, 'POST /uam/api/v1/authenticate'],
    ]);
    expect(entries[0]).toMatchObject({
      who: { role: 'ROLE_NPI' },
      what: { type: 'user', patientId: null },
      onBehalfOf: [ACC_A.id],
      from: { userAgent: 'audit-test/1.0', requestId: ok.headers['x-request-id'] },
      changes: null,
    });
    // never the login id typed, the password or the token
    expect(JSON.stringify(entries)).not.toContain(unknownLogin);
    await expectNoSecrets(entries, u._id, ok.json().token);
    // a sign-in, like a change, needs its entry: none written, no one signed in (503)
    await withAuditEntriesRefused(sys.ctx, async () => {
      const refused = await signIn(u.loginId);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().code).toBe('AUDIT_UNAVAILABLE');
    });
  });

  it('when the entry cannot be written the change is rolled back: a 503, the user as it was', async () => {
    const id = users.target._id;
    const before = await userDoc(id);
    await withAuditEntriesRefused(sys.ctx, async () => {
      const res = await call('PUT', `${USERS}/${id}`, 'admin', { firstName: 'Rolled' });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('AUDIT_UNAVAILABLE');
    });
    expect(await userDoc(id)).toEqual(before);
  });
});
