import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { MSG } from '@onco/domain';
import {
  badRequest,
  errorBody,
  errorReplies,
  forbidden,
  messageReply,
  rateLimitHook,
  requireUser,
  typed,
} from '@onco/platform';
import { decodeBase64 } from '../password-hash';
import {
  changePassword,
  completePasswordReset,
  forgotPassword,
  identityDeps,
  signIn,
  signOut,
  type IdentityDeps,
  type IdentityRouteDeps,
} from '../use-cases';

const b64 = z.string().min(1).max(2048);

const sessionReply = z.object({
  id: z.string(),
  loginId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string(),
  token: z.string(),
  expiresOn: z.string(),
  grantedAuthorities: z.array(z.string()),
  additionalProperties: z.object({ status: z.string() }),
});
const whoAmI = z.object({
  id: z.string(),
  loginId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.string(),
  status: z.string(),
  grantedAuthorities: z.array(z.string()),
  accountIds: z.array(z.string()),
  physicianIds: z.array(z.string()),
});

function decode(field: string, v: string): string {
  const s = decodeBase64(v);
  if (!s) throw badRequest(`${field} must be base64-encoded`);
  return s;
}

type Limits = ReturnType<typeof authRateLimits>;

/**
 * The rate limits of the public calls: per client address (sign-in, reset request, reset completion) and per
 * e-mail address (reset e-mails), each only when configured (0: none); docs/decisions.md "Rate limits".
 */
function authRateLimits(app: FastifyInstance) {
  const { config } = app.platform;
  const perClient =
    config.AUTH_RATE_LIMIT_PER_MINUTE > 0
      ? [rateLimitHook(app, { max: config.AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: 60_000 })]
      : [];
  const perEmail =
    config.PASSWORD_RESET_PER_EMAIL_PER_HOUR > 0
      ? [
          rateLimitHook(app, {
            max: config.PASSWORD_RESET_PER_EMAIL_PER_HOUR,
            timeWindow: 3_600_000,
            key: (req) =>
              `reset:${String((req.params as { email?: string }).email ?? '')
                .trim()
                .toLowerCase()}`,
          }),
        ]
      : [];
  return { perClient, perEmail };
}

/** uam: sign-in, session, passwords. Mounted at /uam/api/v1. */
export async function authRoutes(app: FastifyInstance, opts: IdentityRouteDeps) {
  const limits = authRateLimits(app);
  const deps = identityDeps(app.platform, opts);
  registerSessionRoutes(app, deps, limits);
  registerPasswordRoutes(app, deps, limits);
}

/** Sign-in and the current session. */
function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps, { perClient }: Limits) {
  const r = typed(app);

  r.post(
    '/authenticate',
    {
      config: { public: true },
      onRequest: perClient,
      schema: {
        tags: ['uam'],
        summary: 'Sign in with base64-encoded username and password',
        body: z.object({ username: b64, password: b64 }),
        response: { 200: sessionReply, ...errorReplies, 429: errorBody },
      },
    },
    async (req) =>
      signIn(deps, {
        username: decode('username', req.body.username),
        password: decode('password', req.body.password),
      }),
  );

  r.post(
    '/logout',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['uam'],
        summary: 'Sign out: the token of this call is refused from now on, by every server process',
        description:
          'Only this token: other sign-ins of the user go on (a password change or a deactivation ends them all).',
        response: { 200: messageReply, ...errorReplies },
      },
    },
    async (req) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer\s+/, '').trim();
      await signOut(deps, requireUser(req), token, req.tokenExpiresAt ?? Math.floor(Date.now() / 1000));
      return { message: 'Signed out' };
    },
  );

  r.get(
    '/session',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['uam'],
        summary: 'The current session (for the console)',
        response: { 200: whoAmI, ...errorReplies },
      },
    },
    async (req) => {
      const u = requireUser(req);
      return {
        id: u.id,
        loginId: u.loginId,
        firstName: u.firstName,
        lastName: u.lastName,
        role: u.role,
        status: u.status,
        grantedAuthorities: u.grantedAuthorities,
        accountIds: u.accountIds,
        physicianIds: u.physicianIds,
      };
    },
  );
}

/** Change one's own password, forgot password (the e-mailed link) and the reset with its token. */
function registerPasswordRoutes(app: FastifyInstance, deps: IdentityDeps, limits: Limits) {
  const r = typed(app);
  const { perClient, perEmail } = limits;

  r.put(
    '/users/:id/credentials',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['uam'],
        summary: "Change one's own password (base64 old and new)",
        params: z.object({ id: z.string() }),
        body: z.object({ oldPassword: b64, newPassword: b64 }),
        response: { 200: messageReply, ...errorReplies },
      },
    },
    async (req) => {
      const u = requireUser(req);
      if (req.params.id !== u.id) throw forbidden();
      await changePassword(deps, u, {
        oldPassword: decode('oldPassword', req.body.oldPassword),
        newPassword: decode('newPassword', req.body.newPassword),
      });
      return { message: MSG.changePasswordOk };
    },
  );

  r.post(
    '/password/reset/:email',
    {
      config: { public: true },
      onRequest: [...perClient, ...perEmail],
      schema: {
        tags: ['uam'],
        summary: 'Forgot password: e-mail a single-use reset link',
        params: z.object({ email: z.string().max(320) }),
        response: { 200: messageReply, ...errorReplies, 429: errorBody },
      },
    },
    async (req) => {
      await forgotPassword(deps, req.params.email);
      return { message: MSG.resetEmailSent };
    },
  );

  r.post(
    '/password/reset',
    {
      config: { public: true },
      onRequest: perClient,
      schema: {
        tags: ['uam'],
        summary: 'Set a new password with the token from the e-mailed link',
        body: z.object({ token: z.string().min(10).max(200), newPassword: b64 }),
        response: { 200: messageReply, ...errorReplies, 429: errorBody },
      },
    },
    async (req) => {
      await completePasswordReset(deps, {
        token: req.body.token,
        newPassword: decode('newPassword', req.body.newPassword),
      });
      return { message: MSG.changePasswordOk };
    },
  );
}
