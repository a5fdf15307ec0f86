import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_ROLES,
  AUTHENTICATION_PROVIDERS,
  MSG,
  ROLES,
  ROLE_LABELS,
  creatableRoles,
} from '@onco/domain';
import {
  badRequest,
  conflict,
  errorReplies,
  forbidden,
  requireUser,
  typed,
  updateByIdRoute,
  type SessionUser,
} from '@onco/platform';
import { sendPasswordLink } from '../../credentials';
import type { UserDoc } from '../../models/user';
import {
  loadUser,
  publicUser,
  userProjection,
  userReply,
  type AccountDirectory,
  type UserRouteDeps,
} from './resource';

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

/** The account of a create or an update: left out (undefined), cleared (null), or one of the user's (403). */
async function resolveAccount(
  accounts: AccountDirectory,
  user: SessionUser,
  raw: string | { id: string } | null | undefined,
) {
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  const id = typeof raw === 'string' ? raw : raw.id;
  if (!user.allAccounts && !user.accountIds.includes(id)) throw forbidden();
  const acc = await accounts.get(id);
  if (!acc) throw badRequest(`Unknown account: ${id}`, { field: 'account' });
  return acc;
}

/** Add a user (CAN_ADD_USERS; the roles the user may create) and update one (CAN_MANAGE_USERS). */
export function registerUserWriteRoutes(app: FastifyInstance, { models, resolver, accounts }: UserRouteDeps) {
  const r = typed(app);
  const { config, mail } = app.platform;

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
      const user = requireUser(req);
      const body = req.body;
      if (!creatableRoles(user.role).includes(body.role)) {
        throw forbidden(
          `A ${ROLE_LABELS[user.role]} may not add users with the role ${ROLE_LABELS[body.role]}.`,
        );
      }
      const account = await resolveAccount(accounts, user, body.account);
      if (ACCOUNT_ROLES.includes(body.role) && !account)
        throw badRequest('Account is required for this role', { field: 'account' });
      if (!user.allAccounts && !account) throw forbidden();
      const exists = await models.User.exists({ loginId: body.loginId });
      if (exists) throw conflict(`The login id ${body.loginId} is already taken.`, { field: 'loginId' });
      const now = new Date();
      let created;
      try {
        created = await models.User.create({
          loginId: body.loginId,
          email: body.email.toLowerCase(),
          firstName: body.firstName,
          lastName: body.lastName,
          role: body.role,
          authenticationProvider: body.authenticationProvider,
          account: account ?? null,
          title: body.title ?? null,
          physicianId: body.physicianId ?? null,
          status: 'PROVISIONED',
          createdBy: user.id,
          updatedBy: user.id,
          createdOn: now,
          updatedOn: now,
        });
      } catch (err: any) {
        if (err?.code === 11000)
          throw conflict(`The login id ${body.loginId} is already taken.`, { field: 'loginId' });
        throw err;
      }
      await sendPasswordLink(models, config, mail, created.toObject() as UserDoc, 'activation');
      reply.status(201);
      return { ...publicUser(created.toObject() as UserDoc), message: MSG.userAdded };
    },
  );

  updateByIdRoute(app, {
    path: '/users/:id',
    permission: 'CAN_MANAGE_USERS',
    tag: 'users',
    summary: 'Update a user',
    body: updateBody,
    reply: userReply,
    update: async (user, id, body) => {
      const current = await loadUser(models, user, id);
      if (body.loginId !== undefined && body.loginId !== current.loginId)
        throw badRequest('loginId cannot be changed', { field: 'loginId' });
      const set: Record<string, unknown> = { updatedOn: new Date(), updatedBy: user.id };
      for (const k of ['email', 'firstName', 'lastName', 'title', 'authorizedUsers'] as const) {
        if (body[k] !== undefined) set[k] = k === 'email' ? String(body[k]).toLowerCase() : body[k];
      }
      const account = await resolveAccount(accounts, user, body.account);
      if (account !== undefined) set.account = account;
      const version = body.version ?? current.version;
      // one conditional update: the version the client (or this request) read, the user not deleted
      const updated = await models.User.findOneAndUpdate(
        { _id: current._id, version, deleted: { $ne: true } },
        { $set: set, $inc: { version: 1 } },
        { returnDocument: 'after', projection: userProjection },
      )
        .lean()
        .exec();
      if (!updated) throw conflict();
      resolver.invalidate(current._id);
      return { ...publicUser(updated as unknown as UserDoc), message: MSG.userUpdated };
    },
  });
}
