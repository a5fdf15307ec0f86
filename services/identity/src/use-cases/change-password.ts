import { MSG } from '@onco/domain';
import { badRequest, unauthorized, type SessionUser } from '@onco/platform';
import type { UserDoc } from '../models/user';
import type { CredentialDeps } from './deps';
import { checkOwnPassword } from './own-password';
import { setPassword } from './password-rules';

/**
 * Change one's own password: the old one checked (a wrong one counts toward the lockout), the new one against
 * the rules and the last four; an expired password becomes active. Every other session ends (tokenVersion).
 */
export async function changePassword(
  deps: CredentialDeps,
  user: SessionUser,
  input: { oldPassword: string; newPassword: string },
) {
  const { models } = deps;
  const current = (await models.User.findById(user.id).lean().exec()) as UserDoc | null;
  if (!current) throw unauthorized();
  if (!(await checkOwnPassword(deps, current, input.oldPassword))) {
    throw badRequest(MSG.changePasswordFailed, { reason: 'WRONG_OLD_PASSWORD' });
  }
  const fresh = (await models.User.findById(user.id).lean().exec()) as UserDoc;
  await setPassword(
    deps,
    fresh,
    input.newPassword,
    fresh.status === 'PASSWORD_EXPIRED' ? { status: 'ACTIVE' } : {},
  );
  deps.resolver.invalidate(user.id);
}
