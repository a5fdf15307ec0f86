import { newId, notFound, type SessionUser } from '@onco/platform';
import type { MessageDoc } from '../models';
import { messagesScope } from '../resource';
import type { MessagesDeps } from './deps';

/** What a new thread or a reply says (POST /messages); the route's schema bounds the lengths. */
export interface MessageInput {
  subject?: string | null;
  messageBody?: string | null;
  type?: 'CASE' | 'CASE_COMMENT' | null;
  parent?: { id: string; sfdcId?: string | null } | null;
  testOrderForm?: { id: string; testRequisitionId?: string | null } | null;
  patient?: { id: string; name?: string | null } | null;
  hospitalLocation?: { id: string; name?: string | null } | null;
  account?: { id: string; name?: string | null } | null;
}

/** The thread (a parent message) by id, in the user's scope (404 otherwise). */
export async function findThread({ models }: MessagesDeps, user: SessionUser, id: string) {
  const doc = await models.Message.findOne({
    $and: [{ _id: id, isParent: true, deleted: { $ne: true } }, messagesScope(user)],
  })
    .lean<MessageDoc>()
    .exec();
  if (!doc) throw notFound('Message not found.');
  return doc;
}

/** A thread in the user's scope with its replies, oldest first. */
export async function readThread(deps: MessagesDeps, user: SessionUser, id: string) {
  const parent = await findThread(deps, user, id);
  // replies of a thread: index { 'parent.id': 1 } (models/message.ts)
  const replies = await deps.models.Message.find({ 'parent.id': parent._id, deleted: { $ne: true } })
    .sort({ createdOn: 1, _id: 1 })
    .lean<MessageDoc[]>()
    .exec();
  return { parent, replies };
}

/** Trimmed text, or null when blank. */
export const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

export type NewMessage = ReturnType<typeof newMessage>;

/** What a new thread and a reply share: the id, the body, the owner, new and read by its writer, the audit. */
export function newMessage(user: SessionUser, body: string | null) {
  const now = new Date();
  const owner = { id: user.id, firstName: user.firstName, lastName: user.lastName };
  return {
    _id: newId(),
    messageBody: body,
    owner,
    read: false,
    new: true,
    readers: [user.id],
    lastMessageCreatedOn: now,
    createdOn: now,
    createdBy: user.id,
    updatedOn: now,
    updatedBy: user.id,
  };
}
