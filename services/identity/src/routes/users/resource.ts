import { z } from 'zod';
import { ROLE_LABELS, type Role } from '@onco/domain';
import { dateOut, notFound, scopeFilter, type ListResource, type SessionUser } from '@onco/platform';
import type { IdentityModels, UserDoc } from '../../models/user';
import type { Resolver } from '../../session';

export interface AccountDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/** What the users routes get. */
export interface UserRouteDeps {
  models: IdentityModels;
  resolver: Resolver;
  accounts: AccountDirectory;
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

export const userProjection = { passwordHash: 0, passwordHistory: 0, outbox: 0 } as const;

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
export async function loadUser(models: IdentityModels, user: SessionUser, id: string): Promise<UserDoc> {
  const doc = await models.User.findOne({ $and: [{ _id: id, deleted: { $ne: true } }, userScope(user)] })
    .lean()
    .exec();
  if (!doc) throw notFound();
  return doc as UserDoc;
}
