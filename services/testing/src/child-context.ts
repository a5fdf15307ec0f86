import pino from 'pino';
import {
  connectMongo,
  createKafka,
  createMailer,
  createRedis,
  FileBlobStore,
  loadConfig,
  QueueRegistry,
  type PlatformContext,
} from '@onco/platform';
import { runTestChild } from './processes';

/**
 * The child's side of a kill test (testProcesses' `start`), what every child opens first: the test system's
 * configuration from its environment (refused unless NODE_ENV=test: `name` is for tests only), a logger at
 * LOG_LEVEL (default warn) and MongoDB.
 */
export async function openTestChild(name: string) {
  const config = loadConfig(process.env);
  if (config.NODE_ENV !== 'test') throw new Error(`${name} is for tests only (NODE_ENV=test)`);
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const mongo = await connectMongo(config.MONGO_URL);
  return { config, logger, mongo };
}

/**
 * A queue worker's child process (runTestChild): the platform context the server's queue modules take (MongoDB,
 * Redis, the queue registry, Kafka, mail and the file store of the test system; no outbox relay), on which `define`
 * defines the queue whose worker it runs and returns what else to close, if anything. Its workers start once
 * defined; it stops by closing the queues, then what `define` returned, then MongoDB and Redis.
 */
export function runTestWorkerChild(
  name: string,
  define: (ctx: PlatformContext) => (() => Promise<void>) | void,
): void {
  runTestChild(async () => {
    const { config, logger, mongo } = await openTestChild(name);
    const redis = createRedis(config.REDIS_URL, { logger });
    const queues = new QueueRegistry(
      redis,
      () => createRedis(config.REDIS_URL, { forWorker: true, logger }),
      config.QUEUE_PREFIX,
      logger,
      config.QUEUE_LOCK_MS,
    );
    const ctx: PlatformContext = {
      config,
      logger,
      mongo,
      redis,
      kafka: createKafka(config, logger),
      mail: createMailer(config.MAIL_TRANSPORT, config.MAIL_FROM, config.MAILBOX_DIR),
      queues,
      blobs: new FileBlobStore(config.FILE_STORE_DIR),
      nudgeOutbox: () => undefined,
    };
    const closeMore = define(ctx);
    queues.startWorkers();
    return async () => {
      await queues.close();
      await closeMore?.();
      await mongo.close();
      redis.disconnect();
    };
  });
}
