import { badRequest, forbidden, notFound, type SessionUser } from '@onco/platform';
import type { MessageDoc } from '../models';
import { inScope } from '../resource';
import type { MessagesDeps } from './deps';
import { newMessage, text, type MessageInput } from './threads';

/**
 * A new thread (subject and message required): about an order, it belongs to the order's account; otherwise to
 * the account given (one of the caller's) or the caller's only account.
 */
export async function startThread(deps: MessagesDeps, user: SessionUser, input: MessageInput) {
  const base = newMessage(user, text(input.messageBody));
  const body = base.messageBody;
  const subject = text(input.subject);
  if (!subject || !body)
    throw badRequest('Please enter a subject and a message.', {
      fields: {
        ...(subject ? {} : { subject: 'Subject is required' }),
        ...(body ? {} : { messageBody: 'Message is required' }),
      },
    });
  const orderAccount = input.testOrderForm?.id
    ? await orderAccountOf(deps, user, input.testOrderForm.id)
    : null;
  const accountId =
    orderAccount ?? input.account?.id ?? (user.accountIds.length === 1 ? user.accountIds[0] : null);
  if (!orderAccount && accountId && !user.allAccounts && !user.accountIds.includes(accountId))
    throw forbidden();
  const doc = {
    ...base,
    subject,
    isParent: true,
    type: 'CASE' as const,
    parent: null,
    testOrderForm: input.testOrderForm
      ? { id: input.testOrderForm.id, testRequisitionId: input.testOrderForm.testRequisitionId ?? null }
      : null,
    patient: input.patient ? { id: input.patient.id, name: input.patient.name ?? null } : null,
    hospitalLocation: input.hospitalLocation
      ? { id: input.hospitalLocation.id, name: input.hospitalLocation.name ?? null }
      : null,
    account: accountId ? { id: accountId, name: input.account?.name ?? null } : null,
  };
  await deps.models.Message.create(doc);
  return doc as MessageDoc;
}

/**
 * About an order: the thread belongs to the order's account (so its users and client services read it), from the
 * service's own copy of the requisition's scope; an order the caller may not see is a 404.
 */
async function orderAccountOf({ models }: MessagesDeps, user: SessionUser, requisitionId: string) {
  const order = await models.RequisitionScope.findById(requisitionId).lean().exec();
  if (!order || !inScope(user, order)) throw notFound('The order of this message was not found.');
  return order.accountId;
}
