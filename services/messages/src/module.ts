import type { DomainModule, PlatformContext } from '@onco/platform';
import { messagesModels, type MessagesModels } from './models';
import { messageRoutes } from './routes/messages';
import { commentRoutes } from './routes/comments';
import { startMessagesConsumers } from './consumers/requisition-scope';
import { messagesDashboard } from './dashboard';

export type MessagesModule = DomainModule & { models: MessagesModels };

/**
 * The notifications service: messages, comments and kit requests (none of them emits events yet).
 * Mounted in the notifications area (/cns/api/v1). Its requisition-submitted consumer keeps the requisitions'
 * data scope for the comment routes; it contributes unreadMessages to the home dashboard.
 */
export function createMessagesModule(ctx: PlatformContext): MessagesModule {
  const models = messagesModels(ctx.mongo);
  return {
    name: 'messages',
    models,
    outboxCollections: [],
    startConsumers: () => startMessagesConsumers(ctx, models),
    dashboard: (user, range) => messagesDashboard(models, user, range),
    areas: {
      cns: async (app) => {
        await app.register(messageRoutes, { models });
        await app.register(commentRoutes, { models, ctx });
      },
    },
  };
}
