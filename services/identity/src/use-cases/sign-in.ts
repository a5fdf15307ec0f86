import { randomBytes } from 'node:crypto';
import { MSG } from '@onco/domain';
import { AppError, inTransaction, signToken, unauthorized } from '@onco/platform';
import type { UserDoc } from '../models/user';
import { buildSession } from '../session';
import { signInInput, signingInActor, userTrail } from './audit';
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
 * (a wrong one counts toward the lockout), then the session and its signed token. Every attempt is an audit entry
 * (`sign-in`, docs/audit.md): a refusal is recorded before the 401 (a wrong password's with its count, in one
 * transaction), a sign-in with its `lastLogin` in one transaction; an entry that cannot be written fails the
 * request (503) and signs no one in.
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
  const trail = userTrail(models);
  const refuse = async (error: AppError, known: UserDoc | null = user) => {
    await trail.record(signInInput(known, 'refused'));
    return error;
  };
  if (!user) throw await refuse(authFailed());
  if (user.status === 'LOCKED_OUT') throw await refuse(new LockedError());
  if (!['ACTIVE', 'PASSWORD_EXPIRED'].includes(user.status)) throw await refuse(authFailed());
  const ok = await checkOwnPassword(deps, user, input.password, signInInput(user, 'refused'));
  if (!ok) {
    const now = await models.User.findById(user._id, { status: 1 }).lean().exec();
    if (now?.status === 'LOCKED_OUT') throw new LockedError();
    throw authFailed();
  }
  const actor = signingInActor(user);
  await inTransaction(trail.conn, async (session) => {
    await models.User.updateOne({ _id: user._id }, { $set: { lastLogin: new Date() } }, { session }).exec();
    await trail.recordIn(session, [signInInput(user, 'allowed')], actor);
  });
  trail.recorded();
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
