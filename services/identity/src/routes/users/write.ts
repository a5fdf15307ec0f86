import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { AUTHENTICATION_PROVIDERS, MSG, ROLES } from '@onco/domain';
import { errorReplies, requireUser, typed, updateByIdRoute } from '@onco/platform';
import { createUser, publicUser, updateUser, type IdentityDeps } from '../../use-cases';
import { userReply } from './resource';

const createBody = z.object({
  loginId: z.string().trim().min(3).max(100),
  email: z.string().trim().email().max(320),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().min(1).max(100),
  role: z.enum(ROLES).default('ROLE_PHYSICIAN'),
  authenticationProvider: z.enum(AUTHENTICATION_PROVIDERS).default('OKTA'),
  account: z
    .union([z.string(), z.object({ id: z.string() })])
    .optional()
    .nullable(),
  title: z.string().max(100).optional().nullable(),
  physicianId: z.string().max(64).optional().nullable(),
});

const updateBody = z.object({
  email: z.string().trim().email().max(320).optional(),
  firstName: z.string().trim().min(1).max(100).optional(),
  lastName: z.string().trim().min(1).max(100).optional(),
  title: z.string().max(100).optional().nullable(),
  account: z
    .union([z.string(), z.object({ id: z.string() })])
    .optional()
    .nullable(),
  authorizedUsers: z.array(z.string().max(64)).max(500).optional(),
  loginId: z.string().optional(),
  role: z.unknown().optional(),
  version: z.number().int().optional(),
});

/** Add a user (CAN_ADD_USERS; the roles the user may create) and update one (CAN_MANAGE_USERS). */
export function registerUserWriteRoutes(app: FastifyInstance, deps: IdentityDeps) {
  const r = typed(app);

  r.post(
    '/users',
    {
      config: { permission: 'CAN_ADD_USERS' },
      schema: {
        tags: ['users'],
        summary: 'Create a user',
        body: createBody,
        response: { 201: userReply, ...errorReplies },
      },
    },
    async (req, reply) => {
      const created = await createUser(deps, requireUser(req), req.body);
      reply.status(201);
      return { ...publicUser(created), message: MSG.userAdded };
    },
  );

  updateByIdRoute(app, {
    path: '/users/:id',
    permission: 'CAN_MANAGE_USERS',
    tag: 'users',
    summary: 'Update a user',
    body: updateBody,
    reply: userReply,
    update: async (user, id, body) => ({
      ...publicUser(await updateUser(deps, user, id, body)),
      message: MSG.userUpdated,
    }),
  });
}
