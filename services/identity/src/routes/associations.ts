import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  badRequest,
  listQuerystring,
  notFound,
  parseListQuery,
  requireUser,
  runList,
  sendList,
  typed,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import type { IdentityModels } from '../models/user';
import type { Resolver } from '../session';
import type { AccountDirectory } from './users';

export const associationsResource: ListResource = {
  name: 'associations',
  fields: {
    ownerId: { type: 'id', filter: true },
    type: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    physicianId: { type: 'id', path: 'physician.id', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['account.name', 'physician.name'],
  defaultSort: { field: 'createdOn', order: 'asc' },
  defaultPerPage: 50,
  deletedField: 'deleted',
};

export interface PhysicianDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/** What identity's portal routes take: its models and resolver, and the reference module's names. */
export interface IdentityRouteDeps {
  models: IdentityModels;
  resolver: Resolver;
  accounts: AccountDirectory;
  physicians: PhysicianDirectory;
}

/**
 * User associations (accounts and physicians a user works for): the data scope. A user reads their own;
 * user managers read and change those of the users they manage.
 */
export async function associationRoutes(app: FastifyInstance, opts: IdentityRouteDeps) {
  const r = typed(app);
  const { models, resolver } = opts;

  async function ownerVisible(user: SessionUser, ownerId: string, write: boolean) {
    if (ownerId === user.id && !write) return;
    if (!user.grantedAuthorities.includes('CAN_MANAGE_USERS')) throw notFound();
    const owner = await models.User.findById(ownerId, { account: 1 }).lean().exec();
    if (!owner) throw notFound();
    if (!user.allAccounts && !(owner.account?.id && user.accountIds.includes(owner.account.id)))
      throw notFound();
  }

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
      const user = requireUser(req);
      const query = parseListQuery(associationsResource, req.query as Record<string, unknown>);
      const owner = query.filters.find((f) => f.field === 'ownerId');
      const ownerId = owner && owner.op === 'eq' ? String(owner.values[0]) : user.id;
      await ownerVisible(user, ownerId, false);
      const result = await runList(models.Association, associationsResource, query, { ownerId });
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
      const user = requireUser(req);
      const b = req.body;
      await ownerVisible(user, b.ownerId, true);
      let account = null;
      let physician = null;
      if (b.type === 'ACCOUNT') {
        if (!b.accountId)
          throw badRequest('accountId is required for an ACCOUNT association', { field: 'accountId' });
        if (!user.allAccounts && !user.accountIds.includes(b.accountId)) throw notFound();
        account = await opts.accounts.get(b.accountId);
        if (!account) throw badRequest(`Unknown account: ${b.accountId}`, { field: 'accountId' });
      } else {
        if (!b.physicianId)
          throw badRequest('physicianId is required for a PHYSICIAN association', { field: 'physicianId' });
        physician = await opts.physicians.get(b.physicianId);
        if (!physician) throw badRequest(`Unknown physician: ${b.physicianId}`, { field: 'physicianId' });
      }
      const doc = await models.Association.create({
        ownerId: b.ownerId,
        type: b.type,
        account,
        physician,
        createdBy: user.id,
      });
      resolver.invalidate(b.ownerId);
      reply.status(201);
      const { _id, ...rest } = doc.toObject();
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
      const user = requireUser(req);
      const a = await models.Association.findOne({ _id: req.params.id, deleted: { $ne: true } })
        .lean()
        .exec();
      if (!a) throw notFound();
      await ownerVisible(user, a.ownerId, true);
      await models.Association.updateOne(
        { _id: a._id },
        { $set: { deleted: true, updatedOn: new Date(), updatedBy: user.id } },
      ).exec();
      resolver.invalidate(a.ownerId);
      const { _id, ...rest } = a;
      return { id: _id, ...rest, deleted: true };
    },
  );
}
