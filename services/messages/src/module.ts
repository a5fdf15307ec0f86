import type { DomainModule, PlatformContext } from '@onco/platform';
import { messagesModels, type MessagesModels } from './models';
import { messageRoutes } from './routes/messages';
import { commentRoutes } from './routes/comments';
import { kitRoutes } from './kits/routes';
import { threadRoutes } from './routes/threads';
import { startMessagesConsumers } from './consumers/requisition-scope';
import { messagesDashboard } from './dashboard';
import type { AccountNames, MessagesDeps, ReadablePatients } from './use-cases';

export type MessagesModule = DomainModule & { models: MessagesModels };

/**
 * The notifications service: messages, comments and kit requests (none of them emits events yet; a kit request
 * reaches client services as a message).
 * Mounted in the notifications area (/cns/api/v1). Its requisition-submitted consumer keeps the requisitions'
 * data scope for the comment routes; it contributes unreadMessages to the home dashboard.
 */
export interface MessagesModuleOptions {
  /** account names for kit requests (the reference service's directory, wired by the server) */
  accounts?: AccountNames;
  /** the patients a user may read, for a new message's patient (the reference service's registry) */
  patients?: ReadablePatients;
}

export function createMessagesModule(ctx: PlatformContext, opts: MessagesModuleOptions = {}): MessagesModule {
  const models = messagesModels(ctx.mongo);
  const deps: MessagesDeps = { models, ctx, accounts: opts.accounts, patients: opts.patients };
  return {
    name: 'messages',
    models,
    outboxCollections: [],
    startConsumers: () => startMessagesConsumers(ctx, models),
    dashboard: (user, range) => messagesDashboard(models, user, range),
    areas: {
      cns: async (app) => {
        await app.register(messageRoutes, deps);
        await app.register(threadRoutes, deps);
        await app.register(commentRoutes, deps);
      },
      // test kit requests (spec 2 section 2.10): /portal/api/v1/kits
      portal: async (app) => {
        await app.register(kitRoutes, deps);
      },
    },
  };
}
