import type { DashboardQuery, SessionUser } from '@onco/platform';
import type { MessagesModels } from './models';
import { messagesScope, UNREAD_THREADS } from './routes/messages';

/**
 * The messages service's part of the home dashboard: `unreadMessages`, the unread message threads in the
 * user's scope (the same count as GET /cns/api/v1/messages/communicationCount; comments excluded; not limited
 * by the date range, like the Communications panel).
 */
export async function messagesDashboard(models: MessagesModels, user: SessionUser, _q: DashboardQuery) {
  const unreadMessages = await models.Message.countDocuments({
    $and: [messagesScope(user), UNREAD_THREADS, { deleted: { $ne: true } }],
  }).exec();
  return { unreadMessages };
}
