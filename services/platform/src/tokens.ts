import { createHmac, timingSafeEqual } from 'node:crypto';

/** Compact signed bearer tokens (HMAC-SHA256): base64url(payload).base64url(signature). */
export interface TokenPayload {
  sub: string; // user id
  role: string;
  /** the user's tokenVersion when issued; bumping it (password change, deactivation) revokes every token */
  tv: number;
  iat: number; // seconds
  exp: number; // seconds
  /** what the token opens when not the API: `queue-board` (auth.ts); bearer tokens carry none */
  aud?: string;
  /** random: two sign-ins of one user in the same second get different tokens (one can be signed out alone) */
  jti?: string;
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export function signToken(payload: TokenPayload, secret: string): string {
  const body = b64(JSON.stringify(payload));
  const sig = createHmac('sha256', secret).update(body).digest();
  return `${body}.${b64(sig)}`;
}

/** Returns the payload, or null when the token is malformed, forged or expired. */
export function verifyToken(token: string, secret: string, nowMs = Date.now()): TokenPayload | null {
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [body, sig] = parts;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenPayload;
    if (typeof p.sub !== 'string' || typeof p.exp !== 'number') return null;
    if (p.exp * 1000 <= nowMs) return null;
    return p;
  } catch {
    return null;
  }
}
