import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { listQuerystring, parseListQuery, requireUser, sendList, typed } from '@onco/platform';
import {
  associationsResource,
  createAssociation,
  deleteAssociation,
  identityDeps,
  listAssociations,
  type IdentityRouteDeps,
} from '../use-cases';

/**
 * User associations (accounts and physicians a user works for): the data scope. A user reads their own;
 * user managers read and change those of the users they manage.
 */
export async function associationRoutes(app: FastifyInstance, opts: IdentityRouteDeps) {
  const r = typed(app);
  const deps = identityDeps(app.platform, opts);

  r.get(
    '/associations',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['users'],
        summary: 'User associations (filter ownerId)',
        querystring: listQuerystring,
      },
    },
    async (req, reply) => {
      const query = parseListQuery(associationsResource, req.query as Record<string, unknown>);
      const result = await listAssociations(deps, requireUser(req), query);
      return sendList(reply, associationsResource, query, result);
    },
  );

  r.post(
    '/associations',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        body: z.object({
          ownerId: z.string().max(64),
          type: z.enum(['ACCOUNT', 'PHYSICIAN']),
          accountId: z.string().max(64).optional(),
          physicianId: z.string().max(64).optional(),
        }),
      },
    },
    async (req, reply) => {
      const { _id, ...rest } = await createAssociation(deps, requireUser(req), req.body);
      reply.status(201);
      return { id: _id, ...rest };
    },
  );

  r.delete(
    '/associations/:id',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: { tags: ['users'], params: z.object({ id: z.string().max(64) }) },
    },
    async (req) => {
      const { _id, ...rest } = await deleteAssociation(deps, requireUser(req), req.params.id);
      return { id: _id, ...rest, deleted: true };
    },
  );
}
