import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  listQuerystring,
  listReply,
  parseListQuery,
  requireUser,
  runList,
  sendList,
  typed,
  type ListResource,
} from '@onco/platform';
import { saveUserPreference } from '../use-cases';
import type { RouteDeps } from './shared';

export const userPreferencesResource: ListResource = {
  name: 'userPreferences',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    name: { type: 'string', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 50,
  deletedField: 'deleted',
};

export const preferenceReply = z.object({
  id: z.string(),
  name: z.string(),
  /** JSON text */
  content: z.string(),
  version: z.number(),
  updatedOn: z.date().nullish(),
});

const putBody = z.object({
  name: z.string().trim().min(1).max(100),
  /** JSON text, or any JSON value (stored as its text) */
  content: z.unknown(),
  /** the version read; a stale one is a 409 */
  version: z.number().int().min(0).optional(),
});

/** The user's own saved preferences (list filters and the like; spec 3 section 3): name plus JSON text. */
export async function userPreferenceRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = typed(app);

  r.get(
    '/userPreferences',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['reference'],
        summary: "The signed-in user's preferences (filter name)",
        querystring: listQuerystring,
        response: { 200: listReply(preferenceReply) },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const query = parseListQuery(userPreferencesResource, req.query as Record<string, unknown>);
      // always the user's own, whatever their data scope
      const result = await runList(deps.models.UserPreference, userPreferencesResource, query, {
        userId: user.id,
      });
      return sendList(reply, userPreferencesResource, query, result);
    },
  );

  r.put(
    '/userPreferences',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['reference'],
        summary:
          "Save one of the signed-in user's preferences by name (version guards against a stale write)",
        body: putBody,
        response: { 200: preferenceReply },
      },
    },
    async (req) => saveUserPreference(deps, requireUser(req), req.body),
  );
}
