import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { PHYSICIAN_ROLES } from '@onco/domain';
import {
  errorReplies,
  facetSchema,
  getByIdRoute,
  listQuerystring,
  listReply,
  parseListQuery,
  requireUser,
  runFacets,
  runList,
  sendList,
  typed,
} from '@onco/platform';
import type { UserDoc } from '../../models/user';
import {
  loadUser,
  publicUser,
  userProjection,
  userReply,
  usersResource,
  userScope,
  withRoleLabels,
  type UserRouteDeps,
} from './resource';

/** The users list, its facets (role labels) and one user (CAN_MANAGE_USERS). */
export function registerUserReadRoutes(app: FastifyInstance, { models }: UserRouteDeps) {
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
      const user = requireUser(req);
      const query = parseListQuery(usersResource, req.query as Record<string, unknown>);
      const result = await runList(models.User, usersResource, query, userScope(user), {
        projection: userProjection,
        map: (d) => publicUser(d),
      });
      if (result.facets) result.facets = withRoleLabels(result.facets);
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
      const user = requireUser(req);
      const qs = { ...(req.query as Record<string, unknown>), facets: 'true' };
      const query = parseListQuery(usersResource, qs);
      const facets = await runFacets(models.User, usersResource, query, userScope(user), query.facets);
      return { content: withRoleLabels(facets) };
    },
  );

  getByIdRoute(app, {
    path: '/users/:id',
    permission: 'CAN_MANAGE_USERS',
    tag: 'users',
    reply: userReply,
    errorReplies: true,
    load: async (user, id) => publicUser(await loadUser(models, user, id)),
  });
}

/** Clinician users: the physician choices for authorized users. */
export function registerClinicianRoute(app: FastifyInstance, { models }: UserRouteDeps) {
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
      const user = requireUser(req);
      const query = parseListQuery(usersResource, req.query as Record<string, unknown>);
      const scope = { $and: [userScope(user), { role: { $in: PHYSICIAN_ROLES } }] };
      const result = await runList(models.User, usersResource, query, scope, {
        projection: userProjection,
        map: (d: UserDoc) => ({
          id: d._id,
          firstName: d.firstName,
          lastName: d.lastName,
          physicianId: d.physicianId,
          role: { name: d.role },
        }),
      });
      return sendList(reply, usersResource, query, result);
    },
  );
}
