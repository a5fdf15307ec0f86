import { badRequest, conflict, type SessionUser } from '@onco/platform';
import type { UserDoc } from '../models/user';
import type { IdentityDeps } from './deps';
import { getUser, resolveAccount } from './users';
import { USER_CHANGE, userTrail, withoutSecrets, type UserAuditDoc } from './audit';

export interface UpdateUserInput {
  email?: string;
  firstName?: string;
  lastName?: string;
  title?: string | null;
  account?: string | { id: string } | null;
  authorizedUsers?: string[];
  loginId?: string;
  /** the version the client read (without it: the version this request reads) */
  version?: number;
}

/** Update a user in the user's scope (the login id never changes); a concurrent change is a 409. */
export async function updateUser(
  deps: IdentityDeps,
  user: SessionUser,
  id: string,
  input: UpdateUserInput,
): Promise<UserDoc> {
  const current = await getUser(deps, user, id);
  if (input.loginId !== undefined && input.loginId !== current.loginId)
    throw badRequest('loginId cannot be changed', { field: 'loginId' });
  const set: Record<string, unknown> = { updatedOn: new Date(), updatedBy: user.id };
  for (const k of ['email', 'firstName', 'lastName', 'title', 'authorizedUsers'] as const) {
    if (input[k] !== undefined) set[k] = k === 'email' ? String(input[k]).toLowerCase() : input[k];
  }
  const account = await resolveAccount(deps.accounts, user, input.account);
  if (account !== undefined) set.account = account;
  const version = input.version ?? current.version;
  // one conditional update: the version the client (or this request) read, the user not deleted; committed
  // with its audit entry (the fields changed)
  const updated = await userTrail(deps.models).update<UserAuditDoc>(
    deps.models.User,
    { _id: current._id, version, deleted: { $ne: true } },
    { $set: set, $inc: { version: 1 } },
    USER_CHANGE,
  );
  if (!updated) throw conflict();
  deps.resolver.invalidate(current._id);
  return withoutSecrets(updated);
}
