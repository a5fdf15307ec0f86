export * from './schemas';
export * from './envelope';
export * from './topics';
export * from './outbox';
export * from './relay';
export * from './consumer';
export * from './processed';
export * from './dead-letters';
export * from './asyncapi';
export * from './outage-log';
export { EXAMPLE_DATA } from './examples';
export {
  backoffDelay,
  silentLogger,
  nativeDb,
  type BackoffOptions,
  type DbLike,
  type EventsLogger,
} from './util';
export * from './dependency-errors';
