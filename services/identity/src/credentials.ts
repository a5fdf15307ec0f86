import { createHash, randomBytes } from 'node:crypto';
import { MSG, PASSWORD_HISTORY_SIZE, isStrongPassword, isCompanyEmail, looksLikeEmail } from '@onco/domain';
import { AppError, badRequest, signToken, unauthorized, type Config, type Mailer } from '@onco/platform';
import type { IdentityModels, UserDoc } from './models/user';
import { hashPassword, verifyPassword } from './password-hash';
import { buildSession } from './session';

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
 * Check a user's own password. A wrong password counts toward the lockout (sign-in and signature alike);
 * reaching the threshold locks the account. Atomic without a lock: each failure is one `$inc` of
 * `failedLogins`, and the failure that reaches the threshold also sets LOCKED_OUT in the same update, chosen
 * by the update's filter (below or at/above the threshold, two complementary conditions). Concurrent failures
 * are therefore each counted and exactly one of them locks the account (identity.int.test.ts).
 */
export async function checkOwnPassword(
  models: IdentityModels,
  config: Config,
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
    const locked = await models.User.updateOne(
      { _id: user._id, status: { $ne: 'LOCKED_OUT' }, failedLogins: { $gte: lockAt } },
      {
        $inc: { failedLogins: 1, tokenVersion: 1, version: 1 },
        $set: { status: 'LOCKED_OUT', updatedOn: now },
      },
    ).exec();
    if (locked.matchedCount) return false;
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

export async function authenticate(
  models: IdentityModels,
  config: Config,
  username: string,
  password: string,
) {
  const loginId = username.trim();
  const user = (await models.User.findOne({ loginId, deleted: { $ne: true } })
    .lean()
    .exec()) as UserDoc | null;
  if (!user) throw authFailed();
  if (user.status === 'LOCKED_OUT') throw new LockedError();
  if (!['ACTIVE', 'PASSWORD_EXPIRED'].includes(user.status)) throw authFailed();
  const ok = await checkOwnPassword(models, config, user, password);
  if (!ok) {
    const now = await models.User.findById(user._id, { status: 1 }).lean().exec();
    if (now?.status === 'LOCKED_OUT') throw new LockedError();
    throw authFailed();
  }
  await models.User.updateOne({ _id: user._id }, { $set: { lastLogin: new Date() } }).exec();
  const session = await buildSession(models, user);
  const iat = Math.floor(Date.now() / 1000);
  const token = signToken(
    { sub: user._id, role: user.role, tv: user.tokenVersion ?? 0, iat, exp: iat + config.TOKEN_TTL_SECONDS },
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

/** The new-password rules, then not one of the previous four. Returns the recent hashes to keep. */
async function checkNewPassword(user: UserDoc, newPassword: string): Promise<string[]> {
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
async function writePassword(
  models: IdentityModels,
  user: UserDoc,
  newPassword: string,
  recent: string[],
  extra: Record<string, unknown>,
) {
  const hash = await hashPassword(newPassword);
  // conditional on the version the history was checked against: a concurrent change is a 409
  const res = await models.User.updateOne(
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
  ).exec();
  if (res.matchedCount === 0) throw new AppError(409, 'CONFLICT', MSG.conflict);
}

export async function setPassword(
  models: IdentityModels,
  user: UserDoc,
  newPassword: string,
  extra: Record<string, unknown> = {},
) {
  const recent = await checkNewPassword(user, newPassword);
  await writePassword(models, user, newPassword, recent, extra);
}

export async function changePassword(
  models: IdentityModels,
  config: Config,
  userId: string,
  oldPassword: string,
  newPassword: string,
) {
  const user = (await models.User.findById(userId).lean().exec()) as UserDoc | null;
  if (!user) throw unauthorized();
  if (!(await checkOwnPassword(models, config, user, oldPassword))) {
    throw badRequest(MSG.changePasswordFailed, { reason: 'WRONG_OLD_PASSWORD' });
  }
  const fresh = (await models.User.findById(userId).lean().exec()) as UserDoc;
  await setPassword(
    models,
    fresh,
    newPassword,
    fresh.status === 'PASSWORD_EXPIRED' ? { status: 'ACTIVE' } : {},
  );
}

const tokenHash = (t: string) => createHash('sha256').update(t).digest('hex');

/** E-mail a single-use, expiring link for setting a password (forgot password, reset, reactivation). */
export async function sendPasswordLink(
  models: IdentityModels,
  config: Config,
  mail: Mailer,
  user: UserDoc,
  purpose: 'reset' | 'activation',
) {
  const token = randomBytes(32).toString('base64url');
  await models.ResetToken.updateMany(
    { userId: user._id, usedOn: null },
    { $set: { usedOn: new Date() } },
  ).exec();
  await models.ResetToken.create({
    _id: tokenHash(token),
    userId: user._id,
    purpose,
    expiresOn: new Date(Date.now() + config.PASSWORD_RESET_TTL_MINUTES * 60_000),
  });
  const link = `${config.PUBLIC_URL}/#/reset-password?token=${token}`;
  const subject =
    purpose === 'reset' ? 'Reset your Clinical Portal password' : 'Activate your Clinical Portal account';
  await mail.send({
    to: user.email,
    subject,
    text:
      `Hello ${user.firstName},\n\n` +
      `${purpose === 'reset' ? 'A password reset was requested for your account.' : 'An account was set up for you.'}\n` +
      `Set your password here (the link works once and expires in ${config.PASSWORD_RESET_TTL_MINUTES} minutes):\n${link}\n\n` +
      `If you did not ask for this, ignore this e-mail.\n`,
  });
}

export async function forgotPassword(models: IdentityModels, config: Config, mail: Mailer, email: string) {
  const address = email.trim();
  if (!looksLikeEmail(address)) throw badRequest('Enter a valid e-mail address.');
  if (isCompanyEmail(address, config.COMPANY_EMAIL_DOMAIN))
    throw badRequest(MSG.contactIt, { reason: 'COMPANY_DOMAIN' });
  const user = (await models.User.findOne({
    email: { $eq: address.toLowerCase() },
    deleted: { $ne: true },
  })
    .lean()
    .exec()) as UserDoc | null;
  // The same answer whether or not the address is known, so the form cannot be used to probe accounts.
  if (!user || ['INACTIVE', 'SUSPENDED'].includes(user.status)) return;
  await sendPasswordLink(models, config, mail, user, 'reset');
}

export async function completeReset(models: IdentityModels, token: string, newPassword: string) {
  const invalid = () =>
    badRequest('This password link is invalid or has expired. Request a new one from the sign-in page.', {
      reason: 'INVALID_TOKEN',
    });
  const t = await models.ResetToken.findById(tokenHash(token)).lean().exec();
  if (!t || t.usedOn || t.expiresOn.getTime() < Date.now()) throw invalid();
  const user = (await models.User.findById(t.userId).lean().exec()) as UserDoc | null;
  if (!user) throw invalid();
  // check the password first, so a refused password does not use up the link
  const recent = await checkNewPassword(user, newPassword);
  // the link is claimed by one conditional update: of two uses at once, exactly one matches
  const claimed = await models.ResetToken.updateOne(
    { _id: t._id, usedOn: null },
    { $set: { usedOn: new Date() } },
  ).exec();
  if (claimed.modifiedCount !== 1) throw invalid();
  await writePassword(models, user, newPassword, recent, { status: 'ACTIVE' });
}
