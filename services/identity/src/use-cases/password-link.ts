import { createHash, randomBytes } from 'node:crypto';
import { isCompanyEmail, looksLikeEmail, MSG } from '@onco/domain';
import { badRequest } from '@onco/platform';
import type { UserDoc } from '../models/user';
import type { IdentityDeps } from './deps';
import { checkNewPassword, writePassword } from './password-rules';

const tokenHash = (t: string) => createHash('sha256').update(t).digest('hex');

/** E-mail a single-use, expiring link for setting a password (forgot password, reset, reactivation). */
export async function sendPasswordLink(
  { models, config, mail }: Pick<IdentityDeps, 'models' | 'config' | 'mail'>,
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

/**
 * Forgot password: a reset link to the address's user. The same answer whether or not the address is known
 * (the route's message), so the form cannot be used to probe accounts; company addresses go to IT.
 */
export async function forgotPassword(deps: Pick<IdentityDeps, 'models' | 'config' | 'mail'>, email: string) {
  const address = email.trim();
  if (!looksLikeEmail(address)) throw badRequest('Enter a valid e-mail address.');
  if (isCompanyEmail(address, deps.config.COMPANY_EMAIL_DOMAIN))
    throw badRequest(MSG.contactIt, { reason: 'COMPANY_DOMAIN' });
  const user = (await deps.models.User.findOne({
    email: { $eq: address.toLowerCase() },
    deleted: { $ne: true },
  })
    .lean()
    .exec()) as UserDoc | null;
  if (!user || ['INACTIVE', 'SUSPENDED'].includes(user.status)) return;
  await sendPasswordLink(deps, user, 'reset');
}

/** Set a new password with the token of an e-mailed link (single use, expiring); the account becomes active. */
export async function completePasswordReset(
  deps: Pick<IdentityDeps, 'models'>,
  input: { token: string; newPassword: string },
) {
  const { models } = deps;
  const invalid = () =>
    badRequest('This password link is invalid or has expired. Request a new one from the sign-in page.', {
      reason: 'INVALID_TOKEN',
    });
  const t = await models.ResetToken.findById(tokenHash(input.token)).lean().exec();
  if (!t || t.usedOn || t.expiresOn.getTime() < Date.now()) throw invalid();
  const user = (await models.User.findById(t.userId).lean().exec()) as UserDoc | null;
  if (!user) throw invalid();
  // check the password first, so a refused password does not use up the link
  const recent = await checkNewPassword(user, input.newPassword);
  // the link is claimed by one conditional update: of two uses at once, exactly one matches
  const claimed = await models.ResetToken.updateOne(
    { _id: t._id, usedOn: null },
    { $set: { usedOn: new Date() } },
  ).exec();
  if (claimed.modifiedCount !== 1) throw invalid();
  await writePassword(deps, user, input.newPassword, recent, { status: 'ACTIVE' });
}
