export { createMessagesModule, type MessagesModule } from './module';
export * from './models';
export { messagesResource, messagesScope } from './routes/messages';
