import { currentActor, inTransaction, type AuditInput } from '@onco/platform';
import type { UserDoc } from '../models/user';
import { verifyPassword } from '../password-hash';
import type { CredentialDeps } from './deps';
import { USER_CHANGE, userTrail } from './audit';

/**
 * Check a user's own password. A wrong password counts toward the lockout (sign-in and signature alike);
 * reaching the threshold locks the account. Atomic without a lock: each failure is one `$inc` of
 * `failedLogins`, and the failure that reaches the threshold also sets LOCKED_OUT in the same update, chosen
 * by the update's filter (below or at/above the threshold, two complementary conditions). Concurrent failures
 * are therefore each counted and exactly one of them locks the account (identity.int.test.ts).
 *
 * `failure`: the audit entry of a failed attempt (a refused sign-in), committed with the failure's count in one
 * transaction; the failure that locks the account also has its own entry (`failedLogins`, `status`,
 * `tokenVersion`).
 */
export async function checkOwnPassword(
  { models, config }: Pick<CredentialDeps, 'models' | 'config'>,
  user: UserDoc,
  password: string,
  failure?: AuditInput,
): Promise<boolean> {
  const ok = await verifyPassword(password, user.passwordHash);
  if (ok) {
    await models.User.updateOne(
      { _id: user._id, failedLogins: { $gt: 0 } },
      { $set: { failedLogins: 0 } },
    ).exec();
    return true;
  }
  const lockAt = config.LOCKOUT_THRESHOLD - 1; // failures already counted when this one locks the account
  const now = new Date();
  const trail = userTrail(models);
  const actor = currentActor();
  for (let attempt = 0; attempt < 10; attempt++) {
    const done = await inTransaction(trail.conn, async (session) => {
      // this failure locks the account: it is the one that reaches the threshold, and the account is not locked
      // yet (the lockout's own entry: `failedLogins`, `status`, `tokenVersion`)
      const locked = await trail.updateIn(
        session,
        models.User,
        { _id: user._id, status: { $ne: 'LOCKED_OUT' }, failedLogins: { $gte: lockAt } },
        {
          $inc: { failedLogins: 1, tokenVersion: 1, version: 1 },
          $set: { status: 'LOCKED_OUT', updatedOn: now },
        },
        USER_CHANGE,
        { actor },
      );
      // otherwise just count it (the complement of the filter above)
      const counted =
        !!locked ||
        (
          await models.User.updateOne(
            {
              _id: user._id,
              $or: [{ status: 'LOCKED_OUT' }, { failedLogins: { $not: { $gte: lockAt } } }],
            },
            { $inc: { failedLogins: 1 }, $set: { updatedOn: now } },
            { session },
          ).exec()
        ).matchedCount > 0;
      if (counted && failure) await trail.recordIn(session, [failure], actor);
      return counted;
    });
    if (done) {
      trail.recorded();
      return false;
    }
    // neither matched: the user is gone, or another attempt moved the count between the two updates
    if (!(await models.User.exists({ _id: user._id }))) return false;
  }
  return false;
}

/**
 * The identity module's public call for the requisitions module: signing a requisition checks the signer's
 * own login password; a wrong one counts toward the lockout (and drops the cached session when it locks).
 */
export async function verifySignature(
  deps: CredentialDeps,
  userId: string,
  password: string,
): Promise<boolean> {
  const user = await deps.models.User.findById(userId).lean<UserDoc>().exec();
  if (!user) return false;
  const ok = await checkOwnPassword(deps, user, password);
  if (!ok) deps.resolver.invalidate(userId);
  return ok;
}
