import {
  KIT_MSG,
  KIT_TYPE_DESCRIPTIONS,
  normalizeKitForm,
  validateKitForm,
  type KitForm,
} from '@onco/domain';
import {
  badRequest,
  forbidden,
  inTransaction,
  newId,
  newRecordAudit,
  type SessionUser,
} from '@onco/platform';
import type { KitRequestDoc } from '../models';
import type { MessagesDeps } from '../use-cases/deps';

/** The kit form (spec 2 section 5) plus the account the kits are for. */
export type KitOrder = KitForm & { account?: { id: string } | null };

type Kit = ReturnType<typeof normalizeKitForm>;
type KitAccount = { id: string; name: string | null };

/**
 * Request test kits: the form's rules (400 with `details.fields`, nothing stored), the account one of the
 * caller's (or the caller's only one; staff with every account may name any), then the request and its CASE
 * message to client services ("Kit request: …", the shipping details in its body) in ONE transaction, so no
 * request exists without its notification (docs/decisions.md "Test kits").
 */
export async function orderKit(
  deps: MessagesDeps,
  user: SessionUser,
  form: KitOrder,
): Promise<KitRequestDoc> {
  const fields = validateKitForm(form);
  const accountId = form.account?.id ?? (user.accountIds.length === 1 ? user.accountIds[0] : null);
  if (Object.keys(fields).length || !accountId)
    throw badRequest(
      accountId
        ? 'The kit request has errors: ' +
            Object.entries(fields)
              .map(([k, m]) => `${k}: ${m}`)
              .join('; ')
        : 'Choose the account the kits are for.',
      { fields: accountId ? fields : { ...fields, account: KIT_MSG.required } },
    );
  if (!user.allAccounts && !user.accountIds.includes(accountId)) throw forbidden();
  const account = { id: accountId, name: (await deps.accounts?.get(accountId))?.name ?? null };
  const kit = normalizeKitForm(form);
  const now = new Date();
  const id = newId();
  const doc = {
    _id: id,
    ...kit,
    account,
    ...newRecordAudit(user.id, now),
  };
  await inTransaction(deps.ctx.mongo, async (session) => {
    await deps.models.KitRequest.create([doc], { session });
    await deps.models.Message.create([kitMessage(user, kit, account, id, now)], { session });
  });
  return doc as KitRequestDoc;
}

/** The kit request's message to client services, from the requester, about the request's account. */
function kitMessage(user: SessionUser, kit: Kit, account: KitAccount, id: string, now: Date) {
  const address = [kit.institute, kit.street, kit.suite, `${kit.city}, ${kit.state} ${kit.postalCode}`]
    .filter(Boolean)
    .join(', ');
  return {
    _id: newId(),
    subject: `Kit request: ${kit.numberOfKits} × ${KIT_TYPE_DESCRIPTIONS[kit.testKitType]}`,
    messageBody:
      `${kit.numberOfKits} × ${KIT_TYPE_DESCRIPTIONS[kit.testKitType]} (${kit.testKitType}), ` +
      `shipping ${kit.shippingRequest.replace(/_/g, ' ').toLowerCase()}, for ${kit.recipient}, ` +
      `${address}. Account: ${account.name ?? account.id}. Kit request ${id}.`,
    isParent: true,
    type: 'CASE' as const,
    read: false,
    new: true,
    owner: { id: user.id, firstName: user.firstName, lastName: user.lastName },
    account,
    activityType: 'KIT_REQUEST',
    lastMessageCreatedOn: now,
    createdOn: now,
    createdBy: user.id,
    updatedOn: now,
    updatedBy: user.id,
  };
}
