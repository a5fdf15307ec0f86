import { describe, expect, it } from 'vitest';
import { signToken, verifyToken } from './tokens';

const secret = 'x'.repeat(40);
describe('bearer tokens', () => {
  const now = Date.now();
  const payload = {
    sub: 'u1',
    role: 'ROLE_NPI',
    tv: 0,
    iat: Math.floor(now / 1000),
    exp: Math.floor(now / 1000) + 60,
  };
  it('round-trips a signed token', () => {
    expect(verifyToken(signToken(payload, secret), secret, now)).toEqual(payload);
  });
  it('refuses an expired, forged or malformed token', () => {
    const t = signToken(payload, secret);
    expect(verifyToken(t, secret, now + 61_000)).toBeNull();
    expect(verifyToken(t, 'y'.repeat(40), now)).toBeNull();
    const [body] = t.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, role: 'ROLE_PORTAL_ADMIN' })).toString(
      'base64url',
    );
    expect(verifyToken(`${forged}.${t.split('.')[1]}`, secret, now)).toBeNull();
    expect(verifyToken(body, secret, now)).toBeNull();
    expect(verifyToken('', secret, now)).toBeNull();
  });
});
