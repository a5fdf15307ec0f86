import { buildMatch, type ListQuery, type SessionUser } from '@onco/platform';
import { messagesResource, messagesScope, UNREAD_THREADS } from '../resource';
import type { MessagesDeps } from './deps';

/** Unread message threads in the user's scope, narrowed by the list's filters (communicationCount). */
export async function countUnreadThreads(deps: MessagesDeps, user: SessionUser, query: ListQuery) {
  const match = buildMatch(messagesResource, query, messagesScope(user));
  const unread = UNREAD_THREADS(user.id);
  return deps.models.Message.countDocuments(
    Object.keys(match).length ? { $and: [match, unread] } : unread,
  ).exec();
}
