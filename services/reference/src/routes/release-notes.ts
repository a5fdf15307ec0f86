import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  listQuerystring,
  listReply,
  parseListQuery,
  runList,
  sendList,
  typed,
  type ListResource,
} from '@onco/platform';
import type { RouteDeps } from './shared';

export const releaseNotesResource: ListResource = {
  name: 'releaseNotes',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    revision: { type: 'number', path: 'revisionOrder', sort: true },
    majorRevision: { type: 'number', filter: true },
    name: { type: 'string', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name'],
  defaultSort: { field: 'revision', order: 'desc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const releaseNoteReply = z.object({
  id: z.string(),
  majorRevision: z.number(),
  minorRevision: z.number(),
  patchRevision: z.number(),
  name: z.string(),
  updatedOn: z.date().nullish(),
  featureNoteVOs: z.array(
    z.object({
      title: z.string(),
      featureNoteItemVOs: z.array(
        z.object({ title: z.string(), subFeatureNoteItemVOs: z.array(z.object({ title: z.string() })) }),
      ),
    }),
  ),
});

/** Release notes (spec 3 section 3): any signed-in user, newest release first. */
export async function releaseNoteRoutes(app: FastifyInstance, { models }: RouteDeps) {
  typed(app).get(
    '/releaseNotes',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['reference'],
        summary: 'Release notes, newest first',
        querystring: listQuerystring,
        response: { 200: listReply(releaseNoteReply) },
      },
    },
    async (req, reply) => {
      const query = parseListQuery(releaseNotesResource, req.query as Record<string, unknown>);
      const result = await runList(models.ReleaseNote, releaseNotesResource, query, {});
      return sendList(reply, releaseNotesResource, query, result);
    },
  );
}
