import { badRequest, type SessionUser } from '@onco/platform';
import type { MessageDoc } from '../models';
import type { MessagesDeps } from './deps';
import { findThread, newMessage, text, type MessageInput } from './threads';

/** A reply in a thread the caller may read: the thread is new again for the other side and moves up the list. */
export async function replyInThread(deps: MessagesDeps, user: SessionUser, input: MessageInput) {
  const { Message } = deps.models;
  const base = newMessage(user, text(input.messageBody));
  const body = base.messageBody;
  const now = base.createdOn;
  if (!input.parent?.id) throw badRequest('A reply needs the message it answers (parent.id).');
  if (!body) throw badRequest('Please enter a message.', { field: 'messageBody' });
  const parent = await findThread(deps, user, input.parent.id);
  const reply = {
    ...base,
    subject: text(input.subject) ?? (parent.subject ? `RE: ${parent.subject}` : null),
    isParent: false,
    type: 'CASE_COMMENT' as const,
    parent: { id: parent._id, sfdcId: parent.sfdcId ?? input.parent.sfdcId ?? null },
    testOrderForm: parent.testOrderForm,
    patient: parent.patient,
    hospitalLocation: parent.hospitalLocation,
    account: parent.account,
  };
  await Message.create(reply);
  // the thread is new again for the other side, and moves up the list
  await Message.updateOne(
    { _id: parent._id },
    {
      $set: {
        read: false,
        new: true,
        readers: [user.id],
        lastMessageCreatedOn: now,
        updatedOn: now,
        updatedBy: user.id,
      },
    },
  ).exec();
  return reply as MessageDoc;
}
