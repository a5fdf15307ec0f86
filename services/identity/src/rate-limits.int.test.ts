import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox } from '@onco/platform';
import { b64, createTestSystem, createUser, TEST_PASSWORD } from '@onco/testing';
import { identityModels } from './models/user';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

/**
 * Rate limits of the routes anyone may call (AUTH_RATE_LIMIT_PER_MINUTE per client address;
 * PASSWORD_RESET_PER_EMAIL_PER_HOUR per e-mail address): above them a 429 that says when to try again, and the
 * refused request changes nothing (no failed sign-in counted toward the lockout, no e-mail sent).
 */
describe('rate limits: sign-in and password reset (real store)', () => {
  let sys: Sys;

  beforeAll(async () => {
    sys = await createTestSystem({ AUTH_RATE_LIMIT_PER_MINUTE: '3', PASSWORD_RESET_PER_EMAIL_PER_HOUR: '2' });
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
  });

  const signIn = (loginId: string, password: string, from: string) =>
    sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/authenticate',
      payload: { username: b64(loginId), password: b64(password) },
      remoteAddress: from,
    });
  const reset = (email: string, from: string) =>
    sys.app.inject({ method: 'POST', url: `/uam/api/v1/password/reset/${email}`, remoteAddress: from });

  it('a client address gets 3 sign-ins a minute; the 4th is a 429 that counts no failed sign-in', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const from = '10.0.0.1';
    for (let i = 0; i < 3; i++)
      expect((await signIn(u.loginId, 'wrong-password', from)).statusCode).toBe(401);
    const failed = (await identityModels(sys.ctx.mongo).User.findById(u._id).lean().exec())!.failedLogins;
    expect(failed).toBe(3);

    const limited = await signIn(u.loginId, TEST_PASSWORD, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ seconds? and try again\.$/),
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await identityModels(sys.ctx.mongo).User.findById(u._id).lean().exec())!.failedLogins).toBe(
      failed,
    );
    // another address is not held back
    expect((await signIn(u.loginId, TEST_PASSWORD, '10.0.0.2')).statusCode).toBe(200);
  });

  it('a forged X-Forwarded-For does not escape the limit; a proxy on the same host forwards its clients', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const signInVia = (peer: string, forwardedFor: string) =>
      sys.app.inject({
        method: 'POST',
        url: '/uam/api/v1/authenticate',
        payload: { username: b64(u.loginId), password: b64(TEST_PASSWORD) },
        remoteAddress: peer,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    // a client on the network that names a new address in every request: still one client (TRUST_PROXY is
    // `loopback`, so only a proxy on this host is believed)
    const forged = (i: number) => signInVia('203.0.113.7', `198.51.100.${i}`);
    for (let i = 0; i < 3; i++) expect((await forged(i)).statusCode).toBe(200);
    expect((await forged(3)).statusCode).toBe(429);
    // a reverse proxy on 127.0.0.1 in front of the server: each of its clients has its own count
    const proxied = (client: string) => signInVia('127.0.0.1', client);
    for (let i = 0; i < 3; i++) expect((await proxied('192.0.2.10')).statusCode).toBe(200);
    expect((await proxied('192.0.2.10')).statusCode).toBe(429);
    expect((await proxied('192.0.2.11')).statusCode).toBe(200);
  });

  it('an e-mail address gets 2 reset e-mails an hour, whatever address asks; others still get theirs', async () => {
    const u = await createUser(sys, 'ROLE_NPI', { email: `limit.${Date.now()}@clinic.example.org` });
    expect((await reset(u.email, '10.1.0.1')).statusCode).toBe(200);
    expect((await reset(u.email.toUpperCase(), '10.1.0.2')).statusCode).toBe(200);
    const third = await reset(u.email, '10.1.0.3');
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toMatch(/^Too many attempts\. Please wait \d+ seconds? and try again\.$/);
    const other = await createUser(sys, 'ROLE_NPI', { email: `other.${Date.now()}@clinic.example.org` });
    expect((await reset(other.email, '10.1.0.4')).statusCode).toBe(200);

    const mail = await readMailbox(sys.config.MAILBOX_DIR);
    expect(mail.filter((m) => m.to === u.email)).toHaveLength(2);
    expect(mail.filter((m) => m.to === other.email)).toHaveLength(1);
  });

  it('a client address gets 3 reset requests a minute in all (any e-mail)', async () => {
    const from = '10.2.0.1';
    for (let i = 0; i < 3; i++)
      expect((await reset(`nobody${i}.${Date.now()}@nowhere.example.org`, from)).statusCode).toBe(200);
    expect((await reset(`nobody9.${Date.now()}@nowhere.example.org`, from)).statusCode).toBe(429);
  });
});
