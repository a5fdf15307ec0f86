import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Mailer } from './mail';
import type { QueueRegistry } from './queues';
import type { BlobStore } from './blobs';

/** What every area plugin gets: typed config and the shared connections. */
export interface PlatformContext {
  config: Config;
  logger: Logger;
  mongo: Connection;
  redis: Redis;
  kafka: Kafka;
  mail: Mailer;
  queues: QueueRegistry;
  blobs: BlobStore;
  /** ask the outbox relay for an immediate pass after a write (no-op when the relay runs elsewhere) */
  nudgeOutbox: () => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: PlatformContext;
  }
}
