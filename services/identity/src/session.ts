import { PHYSICIAN_ROLES, permissionsOf, type Role } from '@onco/domain';
import type { SessionUser } from '@onco/platform';
import type { IdentityModels, UserDoc } from './models/user';

/** Build the session (permissions from the matrix, data scope from associations) for a user. */
export async function buildSession(models: IdentityModels, user: UserDoc): Promise<SessionUser> {
  const assoc = await models.Association.find({ ownerId: user._id, deleted: { $ne: true } })
    .lean()
    .exec();
  const accountIds = new Set<string>();
  const physicianIds = new Set<string>();
  if (user.account?.id) accountIds.add(user.account.id);
  for (const a of assoc) {
    if (a.type === 'ACCOUNT' && a.account?.id) accountIds.add(a.account.id);
    if (a.type === 'PHYSICIAN' && a.physician?.id) physicianIds.add(a.physician.id);
  }
  for (const id of user.authorizedUsers ?? []) physicianIds.add(id);
  if (user.physicianId && PHYSICIAN_ROLES.includes(user.role as Role)) physicianIds.add(user.physicianId);
  const granted = permissionsOf(user.role as Role);
  return {
    id: user._id,
    loginId: user.loginId,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role as Role,
    status: user.status,
    grantedAuthorities: granted,
    accountIds: [...accountIds],
    physicianIds: [...physicianIds],
    allAccounts: granted.includes('VIEW_ALL_ACCOUNTS'),
    tokenVersion: user.tokenVersion ?? 0,
  };
}

/** The resolver the route guard calls for every request; a short cache keeps it off the hot path. */
export function sessionResolver(models: IdentityModels, ttlMs = 2000) {
  const cache = new Map<string, { at: number; session: SessionUser | null }>();
  const resolve = async (userId: string) => {
    const hit = cache.get(userId);
    if (hit && Date.now() - hit.at < ttlMs) return hit.session;
    const user = await models.User.findOne({ _id: userId, deleted: { $ne: true } })
      .lean()
      .exec();
    const session = user ? await buildSession(models, user as UserDoc) : null;
    cache.set(userId, { at: Date.now(), session });
    if (cache.size > 10000) cache.clear();
    return session;
  };
  /** forget a user's cached session at once (status change, password change, association change) */
  resolve.invalidate = (userId: string) => cache.delete(userId);
  return resolve;
}
export type Resolver = ReturnType<typeof sessionResolver>;
