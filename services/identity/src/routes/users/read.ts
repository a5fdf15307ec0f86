import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  errorReplies,
  facetSchema,
  getByIdRoute,
  listQuerystring,
  listReply,
  parseListQuery,
  requireUser,
  sendList,
  typed,
} from '@onco/platform';
import {
  getUser,
  listClinicians,
  listUsers,
  publicUser,
  userFacets,
  usersResource,
  type IdentityDeps,
} from '../../use-cases';
import { userReply } from './resource';

/** The users list, its facets (role labels) and one user (CAN_MANAGE_USERS). */
export function registerUserReadRoutes(app: FastifyInstance, deps: IdentityDeps) {
  const r = typed(app);

  r.get(
    '/users',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        summary: 'List users',
        querystring: listQuerystring,
        response: { 200: listReply(userReply), ...errorReplies },
      },
    },
    async (req, reply) => {
      const query = parseListQuery(usersResource, req.query as Record<string, unknown>);
      const result = await listUsers(deps, requireUser(req), query);
      return sendList(reply, usersResource, query, result);
    },
  );

  r.get(
    '/users/facets',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        summary: 'User facets',
        querystring: listQuerystring,
        response: { 200: z.object({ content: z.array(facetSchema) }), ...errorReplies },
      },
    },
    async (req) => {
      const qs = { ...(req.query as Record<string, unknown>), facets: 'true' };
      const query = parseListQuery(usersResource, qs);
      return { content: await userFacets(deps, requireUser(req), query) };
    },
  );

  getByIdRoute(app, {
    path: '/users/:id',
    permission: 'CAN_MANAGE_USERS',
    tag: 'users',
    reply: userReply,
    errorReplies: true,
    load: async (user, id) => publicUser(await getUser(deps, user, id)),
  });
}

/** Clinician users: the physician choices for authorized users. */
export function registerClinicianRoute(app: FastifyInstance, deps: IdentityDeps) {
  typed(app).get(
    '/clinicians',
    {
      config: { permission: ['CAN_MANAGE_USERS', 'CAN_CREATE_TRF'] },
      schema: {
        tags: ['users'],
        summary: 'Clinician users (physician choices for authorized users)',
        querystring: listQuerystring,
      },
    },
    async (req, reply) => {
      const query = parseListQuery(usersResource, req.query as Record<string, unknown>);
      const result = await listClinicians(deps, requireUser(req), query);
      return sendList(reply, usersResource, query, result);
    },
  );
}
