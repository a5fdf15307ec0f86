import { inTransaction, type SessionUser } from '@onco/platform';
import { revokedTokenId } from '../session';
import { userTrail } from './audit';
import type { IdentityDeps } from './deps';

/**
 * Sign out: the token signed out with is revoked until it expires, in every process (the session resolver reads
 * the revoked tokens on each request). Only this token: the user's other sign-ins (another browser) go on. Its
 * SHA-256 is kept on the user with its expiry; those expired are dropped here, so the list holds only tokens that
 * would still be accepted. Two updates and the sign-out's audit entry (`sign-out`, record `user`) in one
 * transaction; no version bump (a sign-out is not an edit of the user).
 */
export async function signOut(
  { models, resolver }: Pick<IdentityDeps, 'models' | 'resolver'>,
  user: SessionUser,
  token: string,
  expiresAtSeconds: number,
): Promise<void> {
  const now = new Date();
  const trail = userTrail(models);
  await inTransaction(trail.conn, async (session) => {
    await models.User.updateOne(
      { _id: user.id },
      { $pull: { revokedTokens: { exp: { $lte: now } } } },
      { session },
    ).exec();
    await models.User.updateOne(
      { _id: user.id },
      { $addToSet: { revokedTokens: { id: revokedTokenId(token), exp: new Date(expiresAtSeconds * 1000) } } },
      { session },
    ).exec();
    await trail.recordIn(session, [
      {
        what: { type: 'user', id: user.id, patientId: null },
        action: 'sign-out',
        accountIds: user.accountIds,
        status: 200,
      },
    ]);
  });
  trail.recorded();
  resolver.invalidate(user.id);
}
