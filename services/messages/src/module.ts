import type { DomainModule, PlatformContext } from '@onco/platform';
import { messagesModels, type MessagesModels } from './models';
import { messageRoutes } from './routes/messages';

export type MessagesModule = DomainModule & { models: MessagesModels };

/**
 * The notifications service: messages, comments and kit requests (none of them emits events yet).
 * Mounted in the notifications area (/cns/api/v1).
 */
export function createMessagesModule(ctx: PlatformContext): MessagesModule {
  const models = messagesModels(ctx.mongo);
  return {
    name: 'messages',
    models,
    outboxCollections: [],
    areas: {
      cns: async (app) => {
        await app.register(messageRoutes, { models });
      },
    },
  };
}
