import type { SessionUser } from '@onco/platform';
import type { MessageDoc } from '../models';
import type { MessagesDeps } from './deps';
import { findThread } from './threads';

/**
 * Opening a thread: markThreadRead marks it read for the side that did not write last (the writer of the latest
 * message is its only reader, so the writer opening their own thread leaves it new for the other side);
 * addThreadReader only records the reader (which makes it read for that reader, see unreadFor). Both answer the
 * thread after the change (or as it was when nothing changed).
 */
async function openThread(
  deps: MessagesDeps,
  user: SessionUser,
  id: string,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
): Promise<MessageDoc> {
  const thread = await findThread(deps, user, id);
  const after = await deps.models.Message.findOneAndUpdate({ _id: thread._id, ...filter }, update, {
    returnDocument: 'after',
  })
    .lean<MessageDoc>()
    .exec();
  return after ?? thread;
}

/** PATCH /messages/{id}: mark the thread read, unless the caller already is one of its readers. */
export const markThreadRead = (deps: MessagesDeps, user: SessionUser, id: string) =>
  openThread(
    deps,
    user,
    id,
    { readers: { $ne: user.id } },
    { $set: { read: true, new: false }, $addToSet: { readers: user.id } },
  );

/** PUT /messages/{id}/addReader: record that the caller opened the thread. */
export const addThreadReader = (deps: MessagesDeps, user: SessionUser, id: string) =>
  openThread(deps, user, id, {}, { $addToSet: { readers: user.id } });
