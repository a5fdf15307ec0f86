export { createMessagesModule, type MessagesModule } from './module';
export * from './models';
export { messagesResource, messagesScope, UNREAD_THREADS } from './routes/messages';
export { commentRoutes, commentsResource, COMMENT_MSG, COMMENT_PERMISSION, inScope } from './routes/comments';
export {
  projectRequisitionScope,
  startMessagesConsumers,
  MESSAGES_REQUISITION_GROUP,
} from './consumers/requisition-scope';
export { messagesDashboard } from './dashboard';
