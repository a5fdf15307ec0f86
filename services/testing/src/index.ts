/**
 * Test support for every level (not run-time code: no source file imports it): whole systems against the real
 * services and their clean slates, users and sign-ins, waiting on facts (the outbox, consumer offsets, queues),
 * Kafka collectors and the test lock, child processes to kill. A package's own fixtures are its `testing` entry
 * (`@onco/requisitions/testing`, `@onco/lab/testing`, `@onco/billing/testing`).
 */
export * from './system';
export * from './processes';
export * from './support';
export * from './outage';
