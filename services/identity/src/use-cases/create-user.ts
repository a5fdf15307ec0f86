import {
  ACCOUNT_ROLES,
  ROLE_LABELS,
  creatableRoles,
  type AuthenticationProvider,
  type Role,
} from '@onco/domain';
import { badRequest, conflict, forbidden, type SessionUser } from '@onco/platform';
import type { UserDoc } from '../models/user';
import type { IdentityDeps } from './deps';
import { sendPasswordLink } from './password-link';
import { resolveAccount } from './users';
import { USER_CHANGE, userTrail, type UserAuditDoc } from './audit';

export interface CreateUserInput {
  loginId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  authenticationProvider: AuthenticationProvider;
  account?: string | { id: string } | null;
  title?: string | null;
  physicianId?: string | null;
}

const taken = (loginId: string) =>
  conflict(`The login id ${loginId} is already taken.`, { field: 'loginId' });

/**
 * Add a user (spec 3 section 7.1): a role the creator may create, an account of theirs (required for the
 * account roles), a login id not taken; the user is PROVISIONED and gets an activation link by e-mail.
 */
export async function createUser(
  deps: IdentityDeps,
  user: SessionUser,
  input: CreateUserInput,
): Promise<UserDoc> {
  const { models } = deps;
  if (!creatableRoles(user.role).includes(input.role)) {
    throw forbidden(
      `A ${ROLE_LABELS[user.role]} may not add users with the role ${ROLE_LABELS[input.role]}.`,
    );
  }
  const account = await resolveAccount(deps.accounts, user, input.account);
  if (ACCOUNT_ROLES.includes(input.role) && !account)
    throw badRequest('Account is required for this role', { field: 'account' });
  if (!user.allAccounts && !account) throw forbidden();
  const exists = await models.User.exists({ loginId: input.loginId });
  if (exists) throw taken(input.loginId);
  const now = new Date();
  let doc: UserDoc;
  try {
    // the user and its audit entry (`create`, the fields set) in one transaction
    doc = await userTrail(models).create<UserAuditDoc>(
      models.User,
      {
        loginId: input.loginId,
        email: input.email.toLowerCase(),
        firstName: input.firstName,
        lastName: input.lastName,
        role: input.role,
        authenticationProvider: input.authenticationProvider,
        account: account ?? null,
        title: input.title ?? null,
        physicianId: input.physicianId ?? null,
        status: 'PROVISIONED',
        createdBy: user.id,
        updatedBy: user.id,
        createdOn: now,
        updatedOn: now,
      },
      USER_CHANGE,
    );
  } catch (err: any) {
    if (err?.code === 11000) throw taken(input.loginId);
    throw err;
  }
  await sendPasswordLink(deps, doc, 'activation');
  return doc;
}
