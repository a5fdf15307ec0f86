import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Permission } from '@onco/domain';
import { requireUser, type SessionUser } from './auth';
import { errorReplies, idParams, typed } from './routes';
import type { AuditRouteConfig } from './audit/plugin';

/** What a route needs: one permission, any of several, or any signed-in user. */
export type RoutePermission = Permission | Permission[] | 'AUTHENTICATED';

/** A route on one record: `{path}` names it by an `:id` param (e.g. '/accounts/:id'). */
interface ByIdRouteOptions {
  path: string;
  permission: RoutePermission;
  tag: string;
  summary?: string;
  /** the 200 reply of the record */
  reply: z.ZodTypeAny;
  /** the record is PHI: each read leaves an audit entry before the reply (docs/audit.md) */
  audit?: AuditRouteConfig;
}

export interface GetByIdRouteOptions extends ByIdRouteOptions {
  /** describe the error replies in the API document too (default: only the 200 reply) */
  errorReplies?: boolean;
  /** the record as this user sees it; throws (a 404) when it does not exist for them */
  load: (user: SessionUser, id: string) => Promise<unknown>;
}

/** The options of a route on one record: its permission, its tag and summary, the id param, then `schema`. */
function byIdOptions<S extends object>(o: ByIdRouteOptions, schema: S) {
  return {
    config: { permission: o.permission, ...(o.audit ? { audit: o.audit } : {}) },
    schema: {
      tags: [o.tag],
      ...(o.summary !== undefined ? { summary: o.summary } : {}),
      params: idParams,
      ...schema,
    },
  };
}

/** GET {path}: one record by id, for the signed-in user. */
export function getByIdRoute(app: FastifyInstance, o: GetByIdRouteOptions) {
  const response = o.errorReplies ? { 200: o.reply, ...errorReplies } : { 200: o.reply };
  typed(app).get(o.path, byIdOptions(o, { response }), async (req) =>
    o.load(requireUser(req), req.params.id),
  );
}

export interface UpdateByIdRouteOptions<B extends z.ZodTypeAny> extends ByIdRouteOptions {
  /** the body's schema */
  body: B;
  /** the change, checked and written; answers the record as the reply shows it */
  update: (user: SessionUser, id: string, body: z.infer<B>) => Promise<unknown>;
}

/** PUT {path}: change one record by id (its error replies described), for the signed-in user. */
export function updateByIdRoute<B extends z.ZodTypeAny>(app: FastifyInstance, o: UpdateByIdRouteOptions<B>) {
  typed(app).put(
    o.path,
    byIdOptions(o, { body: o.body, response: { 200: o.reply, ...errorReplies } }),
    async (req) => o.update(requireUser(req), req.params.id, req.body as z.infer<B>),
  );
}
