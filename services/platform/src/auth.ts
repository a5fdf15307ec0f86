import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission, Role } from '@onco/domain';
import { AppError, forbidden, unauthorized } from './errors';
import { verifyToken } from './tokens';

/** The signed-in user as every route sees it. */
export interface SessionUser {
  id: string;
  loginId: string;
  firstName: string;
  lastName: string;
  role: Role;
  status: string;
  grantedAuthorities: Permission[];
  /** data scope: accounts and physicians the user is associated with (physicians also see their own id) */
  accountIds: string[];
  physicianIds: string[];
  /** lab and billing staff see every account */
  allAccounts: boolean;
  tokenVersion: number;
}

/**
 * The session of a token's user, or null when the user is gone or the token was revoked (signed out): called on
 * every request, with the token, so a revocation through any process counts on the next request in all of them.
 */
export type SessionResolver = (userId: string, token: string) => Promise<SessionUser | null>;

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** when the token this request was signed in with expires (epoch seconds); null without one */
    tokenExpiresAt: number | null;
  }
  interface FastifyInstance {
    /** every route with what the guard requires of it (for docs and the permission tests) */
    routeGuards: RouteGuard[];
  }
  interface FastifyContextConfig {
    /** no token needed (authenticate, health, forgot password) */
    public?: boolean;
    /** the permission this route needs; any signed-in user when 'AUTHENTICATED' */
    permission?: Permission | Permission[] | 'AUTHENTICATED';
  }
}

/**
 * The queue dashboard (bull-board, services/server/src/queue-board.ts) is a page of its own that the browser
 * opens in a tab: it cannot send the console's bearer token, so its routes take the token from this cookie
 * instead, a token made for the board alone (`aud`), set by `POST /portal/api/v1/operations/queueBoard`. Every
 * route under the path needs VIEW_OPERATIONS and only reads (GET/HEAD; anything else is 405): the board never
 * changes a queue. docs/decisions.md "Queue dashboard".
 */
export const QUEUE_BOARD_PATH = '/operations/queues';
export const QUEUE_BOARD_COOKIE = 'oncotrf_queue_board';
export const QUEUE_BOARD_AUDIENCE = 'queue-board';
const QUEUE_BOARD_PERMISSION: Permission = 'VIEW_OPERATIONS';
const MSG_OPEN_BOARD_FROM_CONSOLE =
  'Open the queue dashboard from the console: profile menu, Queues (a signed-in user with VIEW_OPERATIONS)';
const isBoardUrl = (url: string) => url === QUEUE_BOARD_PATH || url.startsWith(`${QUEUE_BOARD_PATH}/`);

export interface RouteGuard {
  method: string;
  url: string;
  public: boolean;
  permission: Permission[] | 'AUTHENTICATED' | null;
}

export interface AuthOptions {
  secret: string;
  resolveSession: SessionResolver;
}

/**
 * The route-level guard. Every route must declare `config.public` or `config.permission`; a route that
 * declares neither fails at start-up, so no route can be forgotten. Without a valid, unexpired token whose
 * tokenVersion matches the user's, the reply is 401; without the permission, 403.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: AuthOptions) => {
    app.decorateRequest('user', null);
    app.decorateRequest('tokenExpiresAt', null);
    const guards: RouteGuard[] = [];
    app.decorate('routeGuards', guards);
    app.addHook('onRoute', (route) => {
      const cfg = (route.config ?? {}) as {
        public?: boolean;
        permission?: Permission | Permission[] | 'AUTHENTICATED';
      };
      if (route.method === 'HEAD' || route.method === 'OPTIONS') return;
      if (route.url.startsWith('/docs')) return;
      if (isBoardUrl(route.url)) {
        // the dashboard's own routes (a library's): guarded by the path, not by their config
        for (const method of ([] as string[]).concat(route.method)) {
          if (method !== 'HEAD')
            guards.push({ method, url: route.url, public: false, permission: [QUEUE_BOARD_PERMISSION] });
        }
        return;
      }
      if (!cfg.public && !cfg.permission) {
        throw new Error(
          `Route ${route.method} ${route.url} declares neither config.public nor config.permission`,
        );
      }
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        if (method === 'HEAD') continue;
        guards.push({
          method,
          url: route.url,
          public: !!cfg.public,
          permission: cfg.public
            ? null
            : cfg.permission === 'AUTHENTICATED'
              ? 'AUTHENTICATED'
              : ([] as Permission[]).concat(cfg.permission as Permission),
        });
      }
    });
    app.addHook('onRequest', async (req: FastifyRequest) => {
      const cfg = req.routeOptions.config as {
        public?: boolean;
        permission?: Permission | Permission[] | 'AUTHENTICATED';
      };
      if (!req.routeOptions.url || cfg.public || req.routeOptions.url.startsWith('/docs')) return;
      const board = isBoardUrl(req.routeOptions.url);
      let token: string | undefined;
      if (board) {
        token = req.cookies?.[QUEUE_BOARD_COOKIE];
        if (!token) throw unauthorized(MSG_OPEN_BOARD_FROM_CONSOLE);
      } else {
        const header = req.headers.authorization;
        token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      }
      if (!token) throw unauthorized();
      const payload = verifyToken(token, opts.secret);
      // a board token opens the board only, and a bearer token is not a board cookie
      if (!payload || (payload.aud ?? null) !== (board ? QUEUE_BOARD_AUDIENCE : null))
        throw unauthorized(board ? MSG_OPEN_BOARD_FROM_CONSOLE : undefined);
      const user = await opts.resolveSession(payload.sub, token);
      if (
        !user ||
        user.tokenVersion !== payload.tv ||
        !['ACTIVE', 'PASSWORD_EXPIRED'].includes(user.status)
      ) {
        throw unauthorized();
      }
      req.user = user;
      req.tokenExpiresAt = payload.exp;
      if (board) {
        if (!user.grantedAuthorities.includes(QUEUE_BOARD_PERMISSION)) throw forbidden();
        if (req.method !== 'GET' && req.method !== 'HEAD')
          throw new AppError(405, 'METHOD_NOT_ALLOWED', 'The queue dashboard only shows the queues');
        return;
      }
      const needed = cfg.permission;
      if (!needed || needed === 'AUTHENTICATED') return;
      const list = Array.isArray(needed) ? needed : [needed];
      if (!list.some((p) => user.grantedAuthorities.includes(p))) throw forbidden();
    });
  },
  { name: 'auth' },
);

export function requireUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

export function can(user: SessionUser, p: Permission): boolean {
  return user.grantedAuthorities.includes(p);
}

/**
 * The data-scope filter for a collection: the user sees a record when its account is one of theirs or its
 * physician is one of theirs. Repositories require it; lab and billing staff (VIEW_ALL_ACCOUNTS) get {}.
 */
export function scopeFilter(
  user: SessionUser,
  paths: { account?: string; physician?: string; owner?: string },
): Record<string, unknown> {
  if (user.allAccounts) return {};
  const or: Record<string, unknown>[] = [];
  if (paths.account) or.push({ [paths.account]: { $in: user.accountIds } });
  if (paths.physician) or.push({ [paths.physician]: { $in: user.physicianIds } });
  if (paths.owner) or.push({ [paths.owner]: user.id });
  if (or.length === 0) return { _id: { $in: [] } };
  return or.length === 1 ? or[0] : { $or: or };
}

/** The user as an event's or history entry's actor: `{id, name}` with the display name at the time. */
export function actorOf(user: SessionUser): { id: string; name: string } {
  return { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() };
}
