/**
 * A token revoked through one server process is refused by every other on its next request (issue 28, item 5):
 * sign-out, a password change, a lockout and a deactivation. Two systems share one database, as two server
 * processes of a deployment share the store; the user is signed in through A, and B has just accepted (and could
 * have kept) the token when A revokes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, createTestSystem, createUser, login, TEST_PASSWORD, type TestSystem } from '@onco/testing';

const UAM = '/uam/api/v1';
const ACCOUNT = { id: 'acc-revoke', name: 'Revocation Oncology' };

describe('token revocation in every process (two server processes, one store)', () => {
  let a: TestSystem;
  let b: TestSystem;

  beforeAll(async () => {
    a = await createTestSystem();
    b = await createTestSystem({ MONGO_URL: a.config.MONGO_URL });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** A provider signed in through A, whose token B has just accepted; `onB`/`onA`: the session call with it. */
  async function signedIn() {
    const user = await createUser(a, 'ROLE_NPI', { account: ACCOUNT });
    const { authorization } = await login(a, user.loginId);
    const session = (sys: TestSystem) =>
      sys.app.inject({ url: `${UAM}/session`, headers: { authorization } }).then((r) => r.statusCode);
    expect(await session(b)).toBe(200);
    expect(await session(a)).toBe(200);
    return { user, authorization, onA: () => session(a), onB: () => session(b) };
  }

  it('sign-out: the token is refused by B at once; another sign-in of the same user goes on', async () => {
    const s = await signedIn();
    const other = await login(a, s.user.loginId);
    const res = await a.app.inject({
      method: 'POST',
      url: `${UAM}/logout`,
      headers: { authorization: s.authorization },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await s.onB()).toBe(401);
    expect(await s.onA()).toBe(401);
    // only the token signed out with: the user's other session (another browser) is not ended
    const otherOnB = await b.app.inject({
      url: `${UAM}/session`,
      headers: { authorization: other.authorization },
    });
    expect(otherOnB.statusCode).toBe(200);
    // signing out twice is no error
    const again = await a.app.inject({
      method: 'POST',
      url: `${UAM}/logout`,
      headers: { authorization: s.authorization },
    });
    expect(again.statusCode).toBe(401);
  });

  it('password change: every earlier token is refused by B at once', async () => {
    const s = await signedIn();
    const res = await a.app.inject({
      method: 'PUT',
      url: `${UAM}/users/${s.user._id}/credentials`,
      headers: { authorization: s.authorization },
      payload: { oldPassword: b64(TEST_PASSWORD), newPassword: b64('N3wPassw0rdRevoke') },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await s.onB()).toBe(401);
  });

  it('lockout: the wrong passwords that lock the account end its sessions in B at once', async () => {
    const s = await signedIn();
    for (let i = 0; i < a.config.LOCKOUT_THRESHOLD; i++) {
      const res = await a.app.inject({
        method: 'POST',
        url: `${UAM}/authenticate`,
        payload: { username: b64(s.user.loginId), password: b64('Wr0ngPassword') },
      });
      expect(res.statusCode).toBe(401);
    }
    expect(await s.onB()).toBe(401);
  });

  it('deactivation by an administrator: the user’s token is refused by B at once', async () => {
    const s = await signedIn();
    const admin = await createUser(a, 'ROLE_PORTAL_ADMIN');
    const { authorization } = await login(a, admin.loginId);
    const res = await a.app.inject({
      method: 'PUT',
      url: `${UAM}/users/${s.user._id}/deactivate`,
      headers: { authorization },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await s.onB()).toBe(401);
  });
});
