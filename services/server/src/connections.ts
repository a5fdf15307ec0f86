/** The process's connections (MongoDB, Redis, Kafka, the BullMQ queues) and the platform context over them. */
import type { Admin } from 'kafkajs';
import type { Logger } from 'pino';
import type { OutboxRelay } from '@onco/events';
import {
  FileBlobStore,
  QueueRegistry,
  connectMongo,
  createKafka,
  createMailer,
  createRedis,
  redisOutage,
  type Config,
  type PlatformContext,
} from '@onco/platform';

export interface Connections {
  mongo: Awaited<ReturnType<typeof connectMongo>>;
  redis: ReturnType<typeof createRedis>;
  kafka: ReturnType<typeof createKafka>;
  kafkaAdmin: Admin;
  queues: QueueRegistry;
  /** the Redis connections the queues' workers opened (closed with the rest) */
  workerConnections: ReturnType<typeof createRedis>[];
}

/** Connect MongoDB, Redis and Kafka (its admin may connect later) and set up the queue registry. */
export async function openConnections(config: Config, logger: Logger): Promise<Connections> {
  const mongo = await connectMongo(config.MONGO_URL);
  // one outage log for every Redis client of the process: one WARN and one INFO an outage, not one per client
  const redisDown = redisOutage(logger);
  const redis = createRedis(config.REDIS_URL, { logger, outage: redisDown });
  const kafka = createKafka(config, logger);
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin
    .connect()
    .catch((err) => logger.warn({ err: err.message }, 'kafka admin not connected yet'));
  const workerConnections: ReturnType<typeof createRedis>[] = [];
  const queues = new QueueRegistry(
    redis,
    () => {
      const c = createRedis(config.REDIS_URL, { forWorker: true, logger, outage: redisDown });
      workerConnections.push(c);
      return c;
    },
    config.QUEUE_PREFIX,
    logger,
    config.QUEUE_LOCK_MS,
    redisDown,
  );
  return { mongo, redis, kafka, kafkaAdmin, queues, workerConnections };
}

/** The context every domain module gets; `relay` is the outbox relay once the workers run (else null). */
export function platformContext(
  config: Config,
  logger: Logger,
  { mongo, redis, kafka, queues }: Connections,
  relay: () => OutboxRelay | null,
): PlatformContext {
  return {
    config,
    logger,
    mongo,
    redis,
    kafka,
    mail: createMailer(config.MAIL_TRANSPORT, config.MAIL_FROM, config.MAILBOX_DIR),
    queues,
    blobs: new FileBlobStore(config.FILE_STORE_DIR),
    nudgeOutbox: () => relay()?.nudge(),
  };
}

/** Close the connections (the queues are closed before, with the workers). */
export async function closeConnections(conns: Connections): Promise<void> {
  await conns.kafkaAdmin.disconnect().catch(() => undefined);
  await Promise.all(conns.workerConnections.map((c) => c.quit().catch(() => undefined)));
  await conns.redis.quit().catch(() => undefined);
  await conns.mongo.close();
}
