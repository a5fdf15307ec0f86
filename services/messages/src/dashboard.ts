import { can, type DashboardQuery, type SessionUser } from '@onco/platform';
import type { MessagesModels } from './models';
import { messagesScope, UNREAD_THREADS } from './resource';

/**
 * The messages service's part of the home dashboard: `unreadMessages`, the unread message threads in the
 * user's scope (the same count as GET /cns/api/v1/messages/communicationCount; comments excluded; not limited
 * by the date range, like the Communications panel). Only for users with VIEW_MESSAGES_PAGE (the counter leads
 * to /messages); others get nothing (the key is absent).
 */
export async function messagesDashboard(models: MessagesModels, user: SessionUser, _q: DashboardQuery) {
  if (!can(user, 'VIEW_MESSAGES_PAGE')) return {};
  const unreadMessages = await models.Message.countDocuments({
    $and: [messagesScope(user), UNREAD_THREADS(user.id), { deleted: { $ne: true } }],
  }).exec();
  return { unreadMessages };
}
