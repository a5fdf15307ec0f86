/**
 * How a change of a user account reads in the audit trail (docs/audit.md "Changes"): record type `user`, its id
 * the user's, no patient, on behalf of the user's account; `create` or `update`, and the names of the fields
 * changed (`status`, `passwordHash`, `failedLogins`, ...), never their values: a password's hash, its history
 * and a token are named at most, never written into an entry. The write and its entry commit in one transaction
 * (platform's AuditTrail.update / create); who and from where come from the request being served (an anonymous
 * request for a sign-in that locks the account or a reset with an e-mailed link).
 */
import type { ClientSession } from 'mongoose';
import {
  auditTrailOf,
  currentActor,
  inTransaction,
  type AuditActor,
  type AuditInput,
  type AuditTrail,
  type ChangeDescription,
} from '@onco/platform';
import type { IdentityModels, UserDoc } from '../models/user';

export type UserAuditDoc = UserDoc & Record<string, unknown>;

export const USER_CHANGE: ChangeDescription<UserAuditDoc> = {
  type: 'user',
  subject: (doc) => ({ id: doc._id, patientId: null, accountIds: [doc.account?.id] }),
  // a create's own bookkeeping (updatedOn, updatedBy and version are the platform's)
  ignore: ['createdOn', 'createdBy'],
};

/** The audit trail of identity's connection (the users' collection's). */
export const userTrail = (models: Pick<IdentityModels, 'User'>): AuditTrail =>
  auditTrailOf({ mongo: models.User.db });

/** A user as identity's replies have it: never the password fields (userProjection). */
export function withoutSecrets(doc: UserDoc): UserDoc {
  const { passwordHash: _hash, passwordHistory: _history, ...rest } = doc as UserDoc & { outbox?: unknown };
  delete (rest as { outbox?: unknown }).outbox;
  return rest as UserDoc;
}

/**
 * A change of a user kept in another collection (an association: the user's accounts and physicians), written by
 * `write` and its `update` entry on the user (`changes`: the names given) in one transaction. Null (nothing
 * recorded) when `write` wrote nothing.
 */
export async function changeOfUser<T>(
  models: Pick<IdentityModels, 'User'>,
  user: { id: string; accountIds: Array<string | null | undefined> },
  changes: string[],
  write: (session: ClientSession) => Promise<T | null>,
): Promise<T | null> {
  const trail = userTrail(models);
  const actor = currentActor();
  const res = await inTransaction(trail.conn, async (session) => {
    const out = await write(session);
    if (out == null) return null;
    // a write conflict runs the whole transaction again; an entry not written refuses the change (a 503)
    await trail.recordIn(
      session,
      [
        {
          what: { type: 'user', id: user.id, patientId: null },
          action: 'update',
          accountIds: user.accountIds,
          changes,
        },
      ],
      actor,
    );
    return out;
  });
  if (res != null) trail.recorded();
  return res;
}

/**
 * A sign-in's entry (`sign-in`, record `user`): allowed (200) or refused (401: a wrong password, a locked or
 * inactive account, or a login id that names no account, then with no record id). Never the login id typed nor
 * the password.
 */
export function signInInput(user: UserDoc | null, outcome: 'allowed' | 'refused'): AuditInput {
  return {
    what: { type: 'user', id: user?._id ?? null, patientId: null },
    action: 'sign-in',
    outcome,
    accountIds: [user?.account?.id],
    status: outcome === 'allowed' ? 200 : 401,
  };
}

/**
 * Who signs in: the request has no session yet, so its actor is `anonymous`; once the password is right the
 * entry names the user (from the request's address, user agent and id). A refused sign-in stays `anonymous`: the
 * one who typed the password is not known to be the account's owner.
 */
export function signingInActor(user: UserDoc): AuditActor {
  const request = currentActor();
  return {
    ...request,
    who: { userId: user._id, role: user.role, name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() },
    accountIds: user.account?.id ? [user.account.id] : [],
  };
}
