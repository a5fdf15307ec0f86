import mongoose, { type Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { Logger } from 'pino';
import type { Config } from './config';

export async function connectMongo(url: string): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    serverSelectionTimeoutMS: 5000,
    autoIndex: true,
    autoCreate: true,
  });
  await conn.asPromise();
  return conn;
}

export function createRedis(url: string, opts: { forWorker?: boolean; logger?: Logger } = {}): Redis {
  const client = new Redis(url, {
    // BullMQ workers need maxRetriesPerRequest: null; request-path clients fail fast instead
    maxRetriesPerRequest: opts.forWorker ? null : 2,
    connectTimeout: 5000,
    lazyConnect: false,
  });
  // ioredis reconnects by itself; log the failure once per burst instead of an unhandled error event
  let last = 0;
  client.on('error', (err) => {
    if (Date.now() - last > 10_000) opts.logger?.warn({ err: err.message }, 'redis connection error');
    last = Date.now();
  });
  return client;
}

export function createKafka(config: Config, logger: Logger): Kafka {
  return new Kafka({
    clientId: config.KAFKA_CLIENT_ID,
    brokers: config.KAFKA_BROKERS,
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { retries: 3, initialRetryTime: 300 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }) => {
        const { message, ...extra } = log;
        if (level <= logLevel.ERROR) logger.error({ kafka: extra }, message);
        else if (level === logLevel.WARN) logger.warn({ kafka: extra }, message);
      },
  });
}

export interface Readiness {
  mongo: boolean;
  kafka: boolean;
  redis: boolean;
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, rej) => (t = setTimeout(() => rej(new Error('timeout')), ms))),
    ]);
  } finally {
    clearTimeout(t);
  }
}

/** GET /ready: each dependency answers within 2 s. */
export async function checkReadiness(deps: {
  mongo: Connection;
  redis: Redis;
  kafkaAdmin: Admin;
}): Promise<Readiness> {
  const [mongo, redis, kafka] = await Promise.all([
    withTimeout(deps.mongo.db!.admin().ping(), 2000).then(
      () => true,
      () => false,
    ),
    withTimeout(deps.redis.ping(), 2000).then(
      (r) => r === 'PONG',
      () => false,
    ),
    withTimeout(deps.kafkaAdmin.describeCluster(), 2000).then(
      (c) => c.brokers.length > 0,
      () => false,
    ),
  ]);
  return { mongo, redis, kafka };
}
