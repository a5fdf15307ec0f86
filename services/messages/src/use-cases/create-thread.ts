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
  // what the message is about must be the user's to read: a patient or an order outside their scope is a 404
  // (its existence is not disclosed). Decision: the order is not checked against the patient, because this
  // service's copy of an order's parties is the submission's, which a later patient merge moves on.
  const patient = input.patient?.id ? await readablePatient(deps, user, input.patient.id) : null;
  const order = input.testOrderForm?.id ? await orderOf(deps, user, input.testOrderForm.id) : null;
  const orderAccount = order?.accountId ?? null;
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
    patient: patient ? { id: patient.id, name: patient.name ?? input.patient?.name ?? null } : null,
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
async function orderOf({ models }: MessagesDeps, user: SessionUser, requisitionId: string) {
  const order = await models.RequisitionScope.findById(requisitionId).lean().exec();
  if (!order || !inScope(user, order)) throw notFound('The order of this message was not found.');
  return order;
}

/** The message's patient, if the user may read them (the reference service's registry); else a 404. */
async function readablePatient({ patients }: MessagesDeps, user: SessionUser, id: string) {
  const patient = patients ? await patients.readable(user, id) : null;
  if (!patient) throw notFound('The patient of this message was not found.');
  return patient;
}
