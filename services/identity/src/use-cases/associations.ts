import {
  badRequest,
  notFound,
  runList,
  type ListQuery,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import type { IdentityDeps } from './deps';
import { changeOfUser } from './audit';

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

/**
 * User associations (accounts and physicians a user works for): the data scope. A user reads their own;
 * user managers read and change those of the users they manage (404 otherwise).
 */
async function ownerVisible(
  { models }: Pick<IdentityDeps, 'models'>,
  user: SessionUser,
  ownerId: string,
  write: boolean,
): Promise<{ account?: { id?: string | null } | null } | null> {
  if (ownerId === user.id && !write) return null;
  if (!user.grantedAuthorities.includes('CAN_MANAGE_USERS')) throw notFound();
  const owner = await models.User.findById(ownerId, { account: 1 }).lean().exec();
  if (!owner) throw notFound();
  if (!user.allAccounts && !(owner.account?.id && user.accountIds.includes(owner.account.id)))
    throw notFound();
  return owner;
}

/** The associations of one user (the query's ownerId, else the user's own). */
export async function listAssociations(deps: IdentityDeps, user: SessionUser, query: ListQuery) {
  const owner = query.filters.find((f) => f.field === 'ownerId');
  const ownerId = owner && owner.op === 'eq' ? String(owner.values[0]) : user.id;
  await ownerVisible(deps, user, ownerId, false);
  return runList(deps.models.Association, associationsResource, query, { ownerId });
}

export interface CreateAssociationInput {
  ownerId: string;
  type: 'ACCOUNT' | 'PHYSICIAN';
  accountId?: string;
  physicianId?: string;
}

/** Associate a user with an account (one of the manager's) or a physician; the user's session is rebuilt. */
export async function createAssociation(
  deps: IdentityDeps,
  user: SessionUser,
  input: CreateAssociationInput,
) {
  const owner = await ownerVisible(deps, user, input.ownerId, true);
  let account = null;
  let physician = null;
  if (input.type === 'ACCOUNT') {
    if (!input.accountId)
      throw badRequest('accountId is required for an ACCOUNT association', { field: 'accountId' });
    if (!user.allAccounts && !user.accountIds.includes(input.accountId)) throw notFound();
    account = await deps.accounts.get(input.accountId);
    if (!account) throw badRequest(`Unknown account: ${input.accountId}`, { field: 'accountId' });
  } else {
    if (!input.physicianId)
      throw badRequest('physicianId is required for a PHYSICIAN association', { field: 'physicianId' });
    physician = await deps.physicians.get(input.physicianId);
    if (!physician) throw badRequest(`Unknown physician: ${input.physicianId}`, { field: 'physicianId' });
  }
  // the association and its audit entry (an `update` of the user: its accounts or physicians) in one transaction
  const doc = await changeOfUser(
    deps.models,
    { id: input.ownerId, accountIds: [owner?.account?.id, account?.id] },
    [input.type === 'ACCOUNT' ? 'associations.account' : 'associations.physician'],
    async (session) => {
      const [created] = await deps.models.Association.create(
        [{ ownerId: input.ownerId, type: input.type, account, physician, createdBy: user.id }],
        { session },
      );
      return created;
    },
  );
  deps.resolver.invalidate(input.ownerId);
  return doc!.toObject();
}

/** Remove an association (soft delete); the owner's session is rebuilt. */
export async function deleteAssociation(deps: IdentityDeps, user: SessionUser, id: string) {
  const a = await deps.models.Association.findOne({ _id: id, deleted: { $ne: true } })
    .lean()
    .exec();
  if (!a) throw notFound();
  const owner = await ownerVisible(deps, user, a.ownerId, true);
  // the soft delete and its audit entry (an `update` of the user) in one transaction
  await changeOfUser(
    deps.models,
    { id: a.ownerId, accountIds: [owner?.account?.id, a.account?.id] },
    [a.type === 'ACCOUNT' ? 'associations.account' : 'associations.physician'],
    async (session) =>
      deps.models.Association.updateOne(
        { _id: a._id },
        { $set: { deleted: true, updatedOn: new Date(), updatedBy: user.id } },
        { session },
      ).exec(),
  );
  deps.resolver.invalidate(a.ownerId);
  return a;
}
