import { randomBytes } from 'node:crypto';
import { MSG } from '@onco/domain';
import { AppError, signToken, unauthorized } from '@onco/platform';
import type { UserDoc } from '../models/user';
import { buildSession } from '../session';
import type { CredentialDeps } from './deps';
import { checkOwnPassword } from './own-password';

export class LockedError extends AppError {
  constructor() {
    super(401, 'LOCKED_OUT', MSG.locked, {
      reason: 'LOCKED_OUT',
      additionalProperties: { status: 'LOCKED_OUT' },
    });
  }
}

const authFailed = () => unauthorized(MSG.authFailed, { reason: 'BAD_CREDENTIALS' });

/**
 * Sign in (spec 3 section 2.1): the user by login id, refused when locked or not active, the password checked
 * (a wrong one counts toward the lockout), then the session and its signed token.
 */
export async function signIn(
  deps: Pick<CredentialDeps, 'models' | 'config'>,
  input: { username: string; password: string },
) {
  const { models, config } = deps;
  const loginId = input.username.trim();
  const user = (await models.User.findOne({ loginId, deleted: { $ne: true } })
    .lean()
    .exec()) as UserDoc | null;
  if (!user) throw authFailed();
  if (user.status === 'LOCKED_OUT') throw new LockedError();
  if (!['ACTIVE', 'PASSWORD_EXPIRED'].includes(user.status)) throw authFailed();
  const ok = await checkOwnPassword(deps, user, input.password);
  if (!ok) {
    const now = await models.User.findById(user._id, { status: 1 }).lean().exec();
    if (now?.status === 'LOCKED_OUT') throw new LockedError();
    throw authFailed();
  }
  await models.User.updateOne({ _id: user._id }, { $set: { lastLogin: new Date() } }).exec();
  const session = await buildSession(models, user);
  const iat = Math.floor(Date.now() / 1000);
  const token = signToken(
    {
      sub: user._id,
      role: user.role,
      tv: user.tokenVersion ?? 0,
      iat,
      exp: iat + config.TOKEN_TTL_SECONDS,
      jti: randomBytes(12).toString('base64url'),
    },
    config.TOKEN_SECRET,
  );
  return {
    id: user._id,
    loginId: user.loginId,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: user.role,
    token,
    expiresOn: new Date((iat + config.TOKEN_TTL_SECONDS) * 1000).toISOString(),
    grantedAuthorities: session.grantedAuthorities,
    additionalProperties: { status: user.status },
  };
}
