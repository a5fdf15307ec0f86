import { createHash } from 'node:crypto';
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

/** What a revoked token is known by: its SHA-256 (the token itself is never stored). */
export const revokedTokenId = (token: string) => createHash('sha256').update(token).digest('base64url');

/**
 * The resolver the route guard calls for every request. Each call reads the user's revocation state from the store
 * (one read by id: version, tokenVersion, status, the revoked tokens), so a sign-out, a password change, a lockout
 * or a deactivation through any process counts on the next request in every process; the rest of the session
 * (permissions, data scope) is kept for `ttlMs` while the user's version is unchanged (docs/decisions.md "Token
 * revocation in every process").
 */
export function sessionResolver(models: IdentityModels, ttlMs = 2000) {
  const cache = new Map<string, { at: number; version: number; session: SessionUser }>();
  const resolve = async (userId: string, token?: string) => {
    const state = await models.User.findOne(
      { _id: userId, deleted: { $ne: true } },
      { version: 1, tokenVersion: 1, status: 1, revokedTokens: 1 },
    )
      .lean<Pick<UserDoc, 'version' | 'tokenVersion' | 'status' | 'revokedTokens'>>()
      .exec();
    if (!state) {
      cache.delete(userId);
      return null;
    }
    if (token && state.revokedTokens?.length) {
      const id = revokedTokenId(token);
      if (state.revokedTokens.some((r) => r.id === id)) return null;
    }
    const hit = cache.get(userId);
    if (
      hit &&
      Date.now() - hit.at < ttlMs &&
      hit.version === state.version &&
      hit.session.tokenVersion === (state.tokenVersion ?? 0) &&
      hit.session.status === state.status
    )
      return hit.session;
    const user = await models.User.findOne({ _id: userId, deleted: { $ne: true } })
      .lean()
      .exec();
    if (!user) return null;
    const session = await buildSession(models, user as UserDoc);
    cache.set(userId, { at: Date.now(), version: (user as UserDoc).version, session });
    if (cache.size > 10000) cache.clear();
    return session;
  };
  /** forget a user's cached session at once (status change, password change, association change) */
  resolve.invalidate = (userId: string) => cache.delete(userId);
  return resolve;
}
export type Resolver = ReturnType<typeof sessionResolver>;
