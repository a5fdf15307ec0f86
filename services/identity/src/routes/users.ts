import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  ACCOUNT_ROLES,
  AUTHENTICATION_PROVIDERS,
  MSG,
  PHYSICIAN_ROLES,
  ROLES,
  ROLE_LABELS,
  USER_ACTIONS,
  creatableRoles,
  statusAfter,
  userActionAllowed,
  type Role,
  type UserAction,
} from '@onco/domain';
import {
  AppError,
  badRequest,
  conflict,
  dateOut,
  errorReplies,
  facetSchema,
  forbidden,
  listReply,
  idParams,
  listQuerystring,
  notFound,
  parseListQuery,
  requireUser,
  runFacets,
  runList,
  scopeFilter,
  sendList,
  typed,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import { sendPasswordLink } from '../credentials';
import type { IdentityModels, UserDoc } from '../models/user';
import { hashPassword } from '../password-hash';
import type { Resolver } from '../session';
import { randomBytes } from 'node:crypto';

export interface AccountDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

export const usersResource: ListResource = {
  name: 'users',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    loginId: { type: 'string', filter: true, sort: true },
    firstName: { type: 'string', filter: true, sort: true },
    lastName: { type: 'string', filter: true, sort: true },
    email: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    role: { type: 'string', filter: true, sort: true },
    authenticationProvider: { type: 'string', filter: true, sort: true },
    location: { type: 'string', path: 'location.name', filter: true, sort: true },
    account: { type: 'string', path: 'account.name', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    lastLogin: { type: 'date', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    enabled: { type: 'boolean', path: '__enabled', filter: false },
  },
  search: ['loginId', 'firstName', 'lastName', 'email'],
  facets: [
    { name: 'status_facet', field: 'status' },
    { name: 'role_label_facet', field: 'role' },
    { name: 'location_facet', field: 'location' },
    { name: 'account_facet', field: 'account' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/** What the admin list shows of a user: never the password fields. */
export function publicUser(u: UserDoc) {
  return {
    id: u._id,
    loginId: u.loginId,
    secondaryLoginId: u.secondaryLoginId ?? null,
    name: `${u.firstName} ${u.lastName}`,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    status: u.status,
    authenticationProvider: u.authenticationProvider,
    sfdcId: u.sfdcId ?? null,
    role: { name: u.role, label: ROLE_LABELS[u.role as Role] ?? u.role },
    location: u.location ?? null,
    account: u.account ?? null,
    title: u.title ?? null,
    physicianId: u.physicianId ?? null,
    authorizedUsers: u.authorizedUsers ?? [],
    lastLogin: u.lastLogin ?? null,
    createdOn: u.createdOn,
    updatedOn: u.updatedOn,
    version: u.version,
  };
}

const userProjection = { passwordHash: 0, passwordHistory: 0, outbox: 0 } as const;

const idName = z.object({ id: z.string(), name: z.string().nullable().optional() });
/** The reply shape of a user (publicUser): never the password fields. */
export const userReply = z.object({
  id: z.string(),
  loginId: z.string(),
  secondaryLoginId: z.string().nullable(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  status: z.string(),
  authenticationProvider: z.string(),
  sfdcId: z.string().nullable(),
  role: z.object({ name: z.string(), label: z.string() }),
  location: idName.nullable(),
  account: idName.nullable(),
  title: z.string().nullable(),
  physicianId: z.string().nullable(),
  authorizedUsers: z.array(z.string()),
  lastLogin: dateOut.nullable(),
  createdOn: dateOut,
  updatedOn: dateOut,
  version: z.number(),
  message: z.string().optional(),
});

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

function userScope(user: SessionUser) {
  return scopeFilter(user, { account: 'account.id', owner: '_id' });
}

function withRoleLabels(facets: Array<{ name: string; items: Array<{ value: unknown; count: number }> }>) {
  return facets.map((f) =>
    f.name === 'role_label_facet'
      ? {
          ...f,
          items: f.items.map((i) => ({ ...i, label: ROLE_LABELS[i.value as Role] ?? String(i.value) })),
        }
      : f,
  );
}

/** Users administration (spec 3 sections 2.7 and 7.1). Mounted at /portal/api/v1 and (list only) /uam/api/v1. */
export async function userRoutes(
  app: FastifyInstance,
  opts: { models: IdentityModels; resolver: Resolver; accounts: AccountDirectory },
) {
  const r = typed(app);
  const { models, resolver, accounts } = opts;
  const { config, mail } = app.platform;

  async function load(user: SessionUser, id: string): Promise<UserDoc> {
    const doc = await models.User.findOne({ $and: [{ _id: id, deleted: { $ne: true } }, userScope(user)] })
      .lean()
      .exec();
    if (!doc) throw notFound();
    return doc as UserDoc;
  }

  async function resolveAccount(user: SessionUser, raw: string | { id: string } | null | undefined) {
    if (raw === undefined) return undefined;
    if (raw === null) return null;
    const id = typeof raw === 'string' ? raw : raw.id;
    if (!user.allAccounts && !user.accountIds.includes(id)) throw forbidden();
    const acc = await accounts.get(id);
    if (!acc) throw badRequest(`Unknown account: ${id}`, { field: 'account' });
    return acc;
  }

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

  r.get(
    '/users/:id',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: { tags: ['users'], params: idParams, response: { 200: userReply, ...errorReplies } },
    },
    async (req) => publicUser(await load(requireUser(req), req.params.id)),
  );

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
      const account = await resolveAccount(user, body.account);
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

  r.put(
    '/users/:id',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        summary: 'Update a user',
        params: idParams,
        body: updateBody,
        response: { 200: userReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const current = await load(user, req.params.id);
      const body = req.body;
      if (body.loginId !== undefined && body.loginId !== current.loginId)
        throw badRequest('loginId cannot be changed', { field: 'loginId' });
      const set: Record<string, unknown> = { updatedOn: new Date(), updatedBy: user.id };
      for (const k of ['email', 'firstName', 'lastName', 'title', 'authorizedUsers'] as const) {
        if (body[k] !== undefined) set[k] = k === 'email' ? String(body[k]).toLowerCase() : body[k];
      }
      const account = await resolveAccount(user, body.account);
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
  );

  r.put(
    '/users/:id/:action',
    {
      config: { permission: 'CAN_MANAGE_USERS' },
      schema: {
        tags: ['users'],
        summary:
          'User action: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword',
        params: z.object({ id: z.string().max(64), action: z.enum(USER_ACTIONS) }),
        response: { 200: userReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const action = req.params.action as UserAction;
      const current = await load(user, req.params.id);
      if (current._id === user.id && action === 'deactivate')
        throw badRequest('You cannot deactivate yourself.');
      if (!userActionAllowed(action, current)) {
        throw new AppError(
          409,
          'ACTION_NOT_ALLOWED',
          `Cannot ${action} a user whose status is ${current.status}.`,
          {
            status: current.status,
            authenticationProvider: current.authenticationProvider,
          },
        );
      }
      const next = statusAfter(action);
      const set: Record<string, unknown> = { status: next, updatedOn: new Date(), updatedBy: user.id };
      if (action === 'unlock' || action === 'activate') set.failedLogins = 0;
      let temporary: string | undefined;
      if (action === 'sendTemporaryPassword') {
        temporary = `Tmp${randomBytes(6).toString('base64url')}9a`;
        set.passwordHash = await hashPassword(temporary);
        set.failedLogins = 0;
      }
      // conditional on the version and status the action was allowed for: a concurrent change is a 409
      const res = await models.User.updateOne(
        { _id: current._id, version: current.version, status: current.status },
        { $set: set, $inc: { version: 1, tokenVersion: 1 } },
      ).exec();
      if (res.matchedCount === 0) throw conflict();
      resolver.invalidate(current._id);
      const fresh = (await models.User.findById(current._id).lean().exec()) as UserDoc;
      if (action === 'resetpassword') await sendPasswordLink(models, config, mail, fresh, 'reset');
      if (action === 'reactivate') await sendPasswordLink(models, config, mail, fresh, 'activation');
      if (temporary) {
        await mail.send({
          to: fresh.email,
          subject: 'Your temporary Clinical Portal password',
          text: `Hello ${fresh.firstName},\n\nYour temporary password is: ${temporary}\nYou will be asked to change it when you sign in.\n`,
        });
      }
      return publicUser(fresh);
    },
  );

  r.get(
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
