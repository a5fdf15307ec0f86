import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission, Role } from '@onco/domain';
import { forbidden, unauthorized } from './errors';
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

export type SessionResolver = (userId: string) => Promise<SessionUser | null>;

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
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
    const guards: RouteGuard[] = [];
    app.decorate('routeGuards', guards);
    app.addHook('onRoute', (route) => {
      const cfg = (route.config ?? {}) as {
        public?: boolean;
        permission?: Permission | Permission[] | 'AUTHENTICATED';
      };
      if (route.method === 'HEAD' || route.method === 'OPTIONS') return;
      if (route.url.startsWith('/docs')) return;
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
      const header = req.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw unauthorized();
      const payload = verifyToken(token, opts.secret);
      if (!payload) throw unauthorized();
      const user = await opts.resolveSession(payload.sub);
      if (
        !user ||
        user.tokenVersion !== payload.tv ||
        !['ACTIVE', 'PASSWORD_EXPIRED'].includes(user.status)
      ) {
        throw unauthorized();
      }
      req.user = user;
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
