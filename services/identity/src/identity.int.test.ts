import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@onco/domain';
import { signToken, readMailbox } from '@onco/platform';
import { b64, createTestSystem, createUser, login, TEST_PASSWORD } from '@onco/testing';
import { identityModels } from './models/user';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;
let sys: Sys;

beforeAll(async () => {
  sys = await createTestSystem({ LOCKOUT_THRESHOLD: '5', TOKEN_TTL_SECONDS: '3600' });
});
afterAll(async () => {
  await sys?.close();
});

const auth = (loginId: string, password: string) =>
  sys.app.inject({
    method: 'POST',
    url: '/uam/api/v1/authenticate',
    payload: { username: b64(loginId), password: b64(password) },
  });

describe('sign-in', () => {
  it('returns id, token, grantedAuthorities, role and names', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const res = await auth(`  ${u.loginId} `, TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: u._id,
      role: 'ROLE_NPI',
      firstName: 'Test',
      lastName: 'NPI',
      loginId: u.loginId,
    });
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(body.grantedAuthorities).toContain('CAN_CREATE_TRF');
    expect(body.grantedAuthorities).not.toContain('VIEW_USERS_PAGE');
  });

  it('gives the single failure message for a wrong password and an unknown user', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    for (const res of [await auth(u.loginId, 'Wrong1234'), await auth('nobody.here', 'Wrong1234')]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        status: 401,
        message: MSG.authFailed,
        details: { reason: 'BAD_CREDENTIALS' },
      });
    }
  });

  it('refuses a body that is not base64 credentials with a 400 saying what is wrong', async () => {
    const res = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/authenticate',
      payload: { username: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/password/);
  });

  it('locks the account after five failures in a row, with the locked message, even for the right password', async () => {
    const u = await createUser(sys, 'ROLE_NON_NPI');
    for (let i = 0; i < 4; i++)
      expect((await auth(u.loginId, 'Wrong1234')).json().message).toBe(MSG.authFailed);
    const fifth = await auth(u.loginId, 'Wrong1234');
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json()).toMatchObject({
      message: MSG.locked,
      code: 'LOCKED_OUT',
      details: { reason: 'LOCKED_OUT', additionalProperties: { status: 'LOCKED_OUT' } },
    });
    const right = await auth(u.loginId, TEST_PASSWORD);
    expect(right.json().message).toBe(MSG.locked);
    const { User } = identityModels(sys.ctx.mongo);
    expect((await User.findById(u._id).lean())?.status).toBe('LOCKED_OUT');
  });

  it('resets the failure count on a successful sign-in', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    for (let i = 0; i < 4; i++) await auth(u.loginId, 'Wrong1234');
    expect((await auth(u.loginId, TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await auth(u.loginId, 'Wrong1234');
    expect((await auth(u.loginId, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('tokens', () => {
  it('every call without a valid token is a 401; the authenticate call aside', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const none = await sys.app.inject({ method: 'GET', url: '/uam/api/v1/session' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const junk = await sys.app.inject({
      method: 'GET',
      url: '/uam/api/v1/session',
      headers: { authorization: 'Bearer abc.def' },
    });
    expect(junk.statusCode).toBe(401);
    const expired = signToken(
      {
        sub: u._id,
        role: u.role,
        tv: 0,
        iat: Math.floor(Date.now() / 1000) - 7200,
        exp: Math.floor(Date.now() / 1000) - 1,
      },
      sys.config.TOKEN_SECRET,
    );
    const old = await sys.app.inject({
      method: 'GET',
      url: '/uam/api/v1/session',
      headers: { authorization: `Bearer ${expired}` },
    });
    expect(old.statusCode).toBe(401);
    const { authorization } = await login(sys, u.loginId);
    const ok = await sys.app.inject({
      method: 'GET',
      url: '/uam/api/v1/session',
      headers: { authorization },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().id).toBe(u._id);
  });

  it('a token issued with a short lifetime stops working when it expires', async () => {
    // 3 s: a token's times are whole seconds, so a 1 s token issued late in a second could expire before the
    // first check on a busy machine; 3 s leaves it at least 2 s of life
    const short = await createTestSystem({ TOKEN_TTL_SECONDS: '3' });
    try {
      const u = await createUser(short, 'ROLE_NPI');
      const { authorization } = await login(short, u.loginId);
      expect(
        (await short.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
      ).toBe(200);
      // refused once its lifetime is over (and for good: asked again below)
      await vi.waitFor(
        async () =>
          expect(
            (await short.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
          ).toBe(401),
        { timeout: 10_000, interval: 100 },
      );
      expect(
        (await short.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
      ).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('passwords', () => {
  const change = (id: string, authorization: string, oldPassword: string, newPassword: string) =>
    sys.app.inject({
      method: 'PUT',
      url: `/uam/api/v1/users/${id}/credentials`,
      headers: { authorization },
      payload: { oldPassword: b64(oldPassword), newPassword: b64(newPassword) },
    });

  it('enforces the rules and the four-password history, and ends other sessions', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    let { authorization } = await login(sys, u.loginId);
    expect((await change(u._id, authorization, TEST_PASSWORD, 'short1A')).statusCode).toBe(400);
    expect((await change(u._id, authorization, TEST_PASSWORD, 'nodigitsHere')).statusCode).toBe(400);
    const wrongOld = await change(u._id, authorization, 'NotMine123', 'Brandnew123');
    expect(wrongOld.statusCode).toBe(400);
    expect(wrongOld.json().message).toBe(MSG.changePasswordFailed);
    const reuse = await change(u._id, authorization, TEST_PASSWORD, TEST_PASSWORD);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({
      message: MSG.changePasswordFailed,
      details: { reason: 'PASSWORD_REUSED' },
    });

    const seq = ['Second222', 'Third3333', 'Fourth444', 'Fifth5555'];
    let current = TEST_PASSWORD;
    for (const next of seq) {
      const res = await change(u._id, authorization, current, next);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(MSG.changePasswordOk);
      // the old token is revoked by the change
      expect(
        (await sys.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
      ).toBe(401);
      current = next;
      ({ authorization } = await login(sys, u.loginId, current));
    }
    // the last four are Fifth, Fourth, Third, Second: all refused; the first one is allowed again
    for (const old of ['Fourth444', 'Third3333', 'Second222']) {
      expect((await change(u._id, authorization, current, old)).json().details.reason).toBe(
        'PASSWORD_REUSED',
      );
    }
    expect((await change(u._id, authorization, current, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("a user cannot change somebody else's password", async () => {
    const a = await createUser(sys, 'ROLE_NPI');
    const b = await createUser(sys, 'ROLE_NPI');
    const { authorization } = await login(sys, a.loginId);
    expect((await change(b._id, authorization, TEST_PASSWORD, 'Whatever123')).statusCode).toBe(403);
  });

  it('forgot password: company addresses are told to contact IT; others get a single-use link that expires', async () => {
    const company = await sys.app.inject({
      method: 'POST',
      url: `/uam/api/v1/password/reset/someone@${sys.config.COMPANY_EMAIL_DOMAIN}`,
    });
    expect(company.statusCode).toBe(400);
    expect(company.json().message).toBe(MSG.contactIt);

    const u = await createUser(sys, 'ROLE_NPI', { email: `reset.${Date.now()}@clinic.example.org` });
    const res = await sys.app.inject({
      method: 'POST',
      url: `/uam/api/v1/password/reset/${u.email.toUpperCase()}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(MSG.resetEmailSent);
    const unknown = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/password/reset/nobody@nowhere.example.org',
    });
    expect(unknown.statusCode).toBe(200);

    const mail = (await readMailbox(sys.config.MAILBOX_DIR)).filter((m) => m.to === u.email);
    expect(mail).toHaveLength(1);
    const token = /token=([\w-]+)/.exec(mail[0].text)![1];
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
    expect(set.statusCode).toBe(200);
    expect((await auth(u.loginId, 'Recovered99')).statusCode).toBe(200);
    const again = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/password/reset',
      payload: { token, newPassword: b64('Another999') },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().details.reason).toBe('INVALID_TOKEN');
  });
});

describe('concurrent sign-in failures', () => {
  it('count every failure and lock the account exactly once (no lost update, no lock)', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const { User } = identityModels(sys.ctx.mongo);
    const before = await User.findById(u._id).lean();
    const results = await Promise.all(Array.from({ length: 8 }, () => auth(u.loginId, 'Wrong1234')));
    expect(results.every((r) => r.statusCode === 401)).toBe(true);
    const doc = await User.findById(u._id).lean();
    expect(doc?.failedLogins).toBe(8);
    expect(doc?.status).toBe('LOCKED_OUT');
    // one lock-out transition: the sessions ended once, the record changed once
    expect(doc?.tokenVersion).toBe((before?.tokenVersion ?? 0) + 1);
    expect(doc?.version).toBe((before?.version ?? 0) + 1);
  });
});
