import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  badRequest,
  conflict,
  listQuerystring,
  listReply,
  parseListQuery,
  requireUser,
  runList,
  sendList,
  toApi,
  typed,
  type ListResource,
} from '@onco/platform';
import { stableId } from '../ids';
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

export const MAX_PREFERENCE_BYTES = 64 * 1024;

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

function contentText(raw: unknown): string {
  let text: string;
  if (typeof raw === 'string') {
    try {
      JSON.parse(raw);
    } catch {
      throw badRequest('content must be JSON text', { field: 'content' });
    }
    text = raw;
  } else {
    text = JSON.stringify(raw ?? null);
  }
  if (Buffer.byteLength(text, 'utf8') > MAX_PREFERENCE_BYTES) {
    throw badRequest(`content is longer than ${MAX_PREFERENCE_BYTES} bytes`, { field: 'content' });
  }
  return text;
}

/** The user's own saved preferences (list filters and the like; spec 3 section 3): name plus JSON text. */
export async function userPreferenceRoutes(app: FastifyInstance, { models }: RouteDeps) {
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
      const result = await runList(models.UserPreference, userPreferencesResource, query, {
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
    async (req) => {
      const user = requireUser(req);
      const { name, version } = req.body;
      const content = contentText(req.body.content);
      // one record per user and name, addressed by an id derived from both (a second insert of the same id is
      // refused). A save is one update conditional on the version given (none: the current record, whatever its
      // version); a record not there yet is inserted.
      const id = stableId('userPreference', `${user.id}\u0000${name}`);
      const save = () =>
        models.UserPreference.findOneAndUpdate(
          { _id: id, userId: user.id, ...(version !== undefined ? { version } : {}) },
          {
            $set: { content, deleted: false, updatedOn: new Date(), updatedBy: user.id },
            $inc: { version: 1 },
          },
          { returnDocument: 'after' },
        )
          .lean()
          .exec();
      for (let attempt = 0; attempt < 2; attempt++) {
        const updated = await save();
        if (updated) return toApi(updated);
        // not at the version given (a record asked at version n > 0 that is not there, too): stale
        if (version !== undefined && version !== 0) throw conflict();
        try {
          const created = await models.UserPreference.create({
            _id: id,
            userId: user.id,
            name,
            content,
            createdBy: user.id,
            updatedBy: user.id,
          });
          return toApi(created.toObject());
        } catch (err: any) {
          if (err?.code !== 11000) throw err;
          // there already: not at version 0 (a 409), or, without a version, saved over on the next attempt
          if (version === 0) throw conflict();
        }
      }
      throw conflict();
    },
  );
}
