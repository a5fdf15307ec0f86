/** Users administration's reads (spec 3 section 7.1) and what its writes share. */
import { PHYSICIAN_ROLES, ROLE_LABELS, type Role } from '@onco/domain';
import {
  badRequest,
  forbidden,
  notFound,
  runFacets,
  runList,
  scopeFilter,
  type ListQuery,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import type { UserDoc } from '../models/user';
import type { AccountDirectory, IdentityDeps } from './deps';

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

export const userProjection = { passwordHash: 0, passwordHistory: 0, outbox: 0 } as const;

export function userScope(user: SessionUser) {
  return scopeFilter(user, { account: 'account.id', owner: '_id' });
}

export function withRoleLabels(
  facets: Array<{ name: string; items: Array<{ value: unknown; count: number }> }>,
) {
  return facets.map((f) =>
    f.name === 'role_label_facet'
      ? {
          ...f,
          items: f.items.map((i) => ({ ...i, label: ROLE_LABELS[i.value as Role] ?? String(i.value) })),
        }
      : f,
  );
}

/** One user by id within the user's scope, not deleted (404 otherwise). */
export async function getUser(
  { models }: Pick<IdentityDeps, 'models'>,
  user: SessionUser,
  id: string,
): Promise<UserDoc> {
  const doc = await models.User.findOne({ $and: [{ _id: id, deleted: { $ne: true } }, userScope(user)] })
    .lean()
    .exec();
  if (!doc) throw notFound();
  return doc as UserDoc;
}

/** The users in the user's scope (publicUser), the role facet with its labels. */
export async function listUsers(
  { models }: Pick<IdentityDeps, 'models'>,
  user: SessionUser,
  query: ListQuery,
) {
  const result = await runList(models.User, usersResource, query, userScope(user), {
    projection: userProjection,
    map: (d) => publicUser(d),
  });
  if (result.facets) result.facets = withRoleLabels(result.facets);
  return result;
}

/** The facets of the users in the user's scope, the role facet with its labels. */
export async function userFacets(
  { models }: Pick<IdentityDeps, 'models'>,
  user: SessionUser,
  query: ListQuery,
) {
  return withRoleLabels(await runFacets(models.User, usersResource, query, userScope(user), query.facets));
}

/** Clinician users in the user's scope: the physician choices for authorized users. */
export async function listClinicians(
  { models }: Pick<IdentityDeps, 'models'>,
  user: SessionUser,
  query: ListQuery,
) {
  const scope = { $and: [userScope(user), { role: { $in: PHYSICIAN_ROLES } }] };
  return runList(models.User, usersResource, query, scope, {
    projection: userProjection,
    map: (d: UserDoc) => ({
      id: d._id,
      firstName: d.firstName,
      lastName: d.lastName,
      physicianId: d.physicianId,
      role: { name: d.role },
    }),
  });
}

/** The account of a create or an update: left out (undefined), cleared (null), or one of the user's (403). */
export async function resolveAccount(
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
