/**
 * Test support for every level (not run-time code: no source file imports it): whole systems against the real
 * services and their clean slates, users, sign-ins and API calls, waiting on facts (the outbox, consumer
 * offsets, queues), Kafka collectors and the test lock, multipart bodies and the file store, child processes to
 * kill. A package's own fixtures are its `testing` entry (`@onco/requisitions/testing`, `@onco/lab/testing`,
 * `@onco/billing/testing`).
 */
export * from './system';
export * from './api';
export * from './use-test-system';
export * from './processes';
export * from './child-context';
export * from './support';
export * from './kafka-bed';
export * from './uploads';
export * from './outage';
export * from './audit';
