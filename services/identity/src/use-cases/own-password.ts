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
 */
export async function checkOwnPassword(
  { models, config }: Pick<CredentialDeps, 'models' | 'config'>,
  user: UserDoc,
  password: string,
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
  for (let attempt = 0; attempt < 10; attempt++) {
    // this failure locks the account: it is the one that reaches the threshold, and the account is not locked yet
    // (the lockout committed with its audit entry: `failedLogins`, `status`, `tokenVersion`)
    const locked = await userTrail(models).update(
      models.User,
      { _id: user._id, status: { $ne: 'LOCKED_OUT' }, failedLogins: { $gte: lockAt } },
      {
        $inc: { failedLogins: 1, tokenVersion: 1, version: 1 },
        $set: { status: 'LOCKED_OUT', updatedOn: now },
      },
      USER_CHANGE,
    );
    if (locked) return false;
    // otherwise just count it (the complement of the filter above)
    const counted = await models.User.updateOne(
      {
        _id: user._id,
        $or: [{ status: 'LOCKED_OUT' }, { failedLogins: { $not: { $gte: lockAt } } }],
      },
      { $inc: { failedLogins: 1 }, $set: { updatedOn: now } },
    ).exec();
    if (counted.matchedCount) return false;
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
