export { createMessagesModule, type MessagesModule } from './module';
export * from './models';
export { messagesResource, messagesScope, UNREAD_THREADS, commentsResource, inScope } from './resource';
export { commentRoutes, COMMENT_PERMISSION } from './routes/comments';
export { COMMENT_MSG } from './use-cases';
export {
  projectRequisitionScope,
  startMessagesConsumers,
  MESSAGES_REQUISITION_GROUP,
} from './consumers/requisition-scope';
export { messagesDashboard } from './dashboard';
