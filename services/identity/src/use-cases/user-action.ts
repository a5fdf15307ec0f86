import { randomBytes } from 'node:crypto';
import { statusAfter, userActionAllowed, type UserAction } from '@onco/domain';
import { AppError, badRequest, conflict, type SessionUser } from '@onco/platform';
import type { UserDoc } from '../models/user';
import { hashPassword } from '../password-hash';
import type { IdentityDeps } from './deps';
import { sendPasswordLink } from './password-link';
import { getUser } from './users';
import { USER_CHANGE, userTrail } from './audit';

/**
 * A user action: activate, deactivate, unlock, resetpassword, reactivate, sendTemporaryPassword (each allowed
 * for some statuses only; a 409 otherwise), with the e-mail the action sends. Every session of the user ends.
 */
export async function applyUserAction(
  deps: IdentityDeps,
  user: SessionUser,
  id: string,
  action: UserAction,
): Promise<UserDoc> {
  const { models, mail } = deps;
  const current = await getUser(deps, user, id);
  if (current._id === user.id && action === 'deactivate') throw badRequest('You cannot deactivate yourself.');
  if (!userActionAllowed(action, current)) {
    throw new AppError(
      409,
      'ACTION_NOT_ALLOWED',
      `Cannot ${action} a user whose status is ${current.status}.`,
      {
        status: current.status,
        authenticationProvider: current.authenticationProvider,
      },
    );
  }
  const set: Record<string, unknown> = {
    status: statusAfter(action),
    updatedOn: new Date(),
    updatedBy: user.id,
  };
  if (action === 'unlock' || action === 'activate') set.failedLogins = 0;
  let temporary: string | undefined;
  if (action === 'sendTemporaryPassword') {
    temporary = `Tmp${randomBytes(6).toString('base64url')}9a`;
    set.passwordHash = await hashPassword(temporary);
    set.failedLogins = 0;
  }
  // conditional on the version and status the action was allowed for: a concurrent change is a 409; committed
  // with its audit entry (the fields changed: `status`, `passwordHash` by name only, ...)
  const res = await userTrail(models).update(
    models.User,
    { _id: current._id, version: current.version, status: current.status },
    { $set: set, $inc: { version: 1, tokenVersion: 1 } },
    USER_CHANGE,
  );
  if (!res) throw conflict();
  deps.resolver.invalidate(current._id);
  const fresh = (await models.User.findById(current._id).lean().exec()) as UserDoc;
  if (action === 'resetpassword') await sendPasswordLink(deps, fresh, 'reset');
  if (action === 'reactivate') await sendPasswordLink(deps, fresh, 'activation');
  if (temporary) {
    await mail.send({
      to: fresh.email,
      subject: 'Your temporary Clinical Portal password',
      text: `Hello ${fresh.firstName},\n\nYour temporary password is: ${temporary}\nYou will be asked to change it when you sign in.\n`,
    });
  }
  return fresh;
}
