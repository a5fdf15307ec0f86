import { MSG, PASSWORD_HISTORY_SIZE, isStrongPassword } from '@onco/domain';
import { AppError, badRequest } from '@onco/platform';
import type { UserDoc } from '../models/user';
import { hashPassword, verifyPassword } from '../password-hash';
import type { IdentityDeps } from './deps';
import { USER_CHANGE, userTrail } from './audit';

/** The new-password rules, then not one of the previous four. Returns the recent hashes to keep. */
export async function checkNewPassword(user: UserDoc, newPassword: string): Promise<string[]> {
  if (!isStrongPassword(newPassword)) {
    throw badRequest(
      'The new password must have at least 8 characters, a digit, an upper-case and a lower-case letter.',
      { reason: 'WEAK_PASSWORD' },
    );
  }
  const history = [user.passwordHash, ...(user.passwordHistory ?? [])].filter(Boolean) as string[];
  const recent = [...new Set(history)].slice(0, PASSWORD_HISTORY_SIZE);
  for (const h of recent) {
    if (await verifyPassword(newPassword, h))
      throw badRequest(MSG.changePasswordFailed, { reason: 'PASSWORD_REUSED' });
  }
  return recent;
}

/** Set a new password after checkNewPassword. Bumps tokenVersion, so every other session ends. */
export async function writePassword(
  { models }: Pick<IdentityDeps, 'models'>,
  user: UserDoc,
  newPassword: string,
  recent: string[],
  extra: Record<string, unknown>,
) {
  const hash = await hashPassword(newPassword);
  // conditional on the version the history was checked against: a concurrent change is a 409; committed with
  // its audit entry (`passwordHash`, `passwordHistory`, ... by name, never a hash)
  const res = await userTrail(models).update(
    models.User,
    { _id: user._id, version: user.version },
    {
      $set: {
        passwordHash: hash,
        passwordHistory: [hash, ...recent].slice(0, PASSWORD_HISTORY_SIZE),
        failedLogins: 0,
        updatedOn: new Date(),
        ...extra,
      },
      $inc: { tokenVersion: 1, version: 1 },
    },
    USER_CHANGE,
  );
  if (!res) throw new AppError(409, 'CONFLICT', MSG.conflict);
}

/** Check the new password against the rules and the history, then write it. */
export async function setPassword(
  deps: Pick<IdentityDeps, 'models'>,
  user: UserDoc,
  newPassword: string,
  extra: Record<string, unknown> = {},
) {
  const recent = await checkNewPassword(user, newPassword);
  await writePassword(deps, user, newPassword, recent, extra);
}
