import mongoose, { type Connection } from 'mongoose';
import { Redis } from 'ioredis';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import type { Logger } from 'pino';
import {
  KAFKA_RECOVERY_SETTLE_MS,
  kafkaReachable,
  outageLog,
  setKafkaClientOutage,
  type OutageLog,
} from '@onco/events';
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

let redisClients = 0;

/**
 * A Redis client. ioredis reconnects by itself; its connection errors are failures of `outage` (one WARN when
 * the outage starts, one INFO with its duration once every client that failed is ready again: pass the process's
 * one `redisOutage` to each of its clients), instead of an unhandled error event or a line per retry.
 */
export function createRedis(
  url: string,
  opts: { forWorker?: boolean; logger?: Logger; outage?: OutageLog } = {},
): Redis {
  const client = new Redis(url, {
    // BullMQ workers need maxRetriesPerRequest: null; request-path clients fail fast instead
    maxRetriesPerRequest: opts.forWorker ? null : 2,
    connectTimeout: 5000,
    lazyConnect: false,
  });
  const outage = opts.outage ?? (opts.logger ? redisOutage(opts.logger) : null);
  const source = `redis client ${++redisClients}`;
  client.on('error', (err) => outage?.down(err, { client: source }, source));
  client.on('ready', () => outage?.up({}, source));
  return client;
}

/** The outage log a process's Redis clients share (createRedis `outage`), and its queue workers (QueueRegistry). */
export const redisOutage = (logger: Logger): OutageLog => outageLog(logger, 'redis');

/**
 * kafkajs's own lines that say the broker cannot be reached: failures of the client's outage (one WARN, then debug;
 * docs/decisions.md "One log line per outage"). Matched on the message and the broker's answer (kafkajs 2.2).
 */
const KAFKA_UNAVAILABLE = new RegExp(
  [
    'ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|EPIPE|Connection (error|timeout)|Closed connection',
    'timed out|seed broker|[Nn]o broker|Failed to connect',
  ].join('|'),
);
/**
 * kafkajs's lines that say nothing the product's own lines do not, or that kafkajs retries by itself: a consumer's
 * crash and restart (each consumer group's outage log reports them, events/src/crash-restart.ts), a group
 * rebalancing when a member joins or leaves, a partition's leader or a group's coordinator moving or still loading
 * (a new topic, a broker starting: its requests are retried), and the relay's idempotent producer limiting its
 * retries (on purpose: the outbox sends again what Kafka did not acknowledge, and consumers de-duplicate by event
 * id). Debug.
 */
const KAFKA_ROUTINE = new RegExp(
  [
    '^Crash: ',
    '^Restarting the consumer',
    '^The group is rebalancing, re-joining',
    '^The coordinator is not aware of this member',
    '[Ll]eader (is )?not available|not the leader|no leader|[Cc]oordinator',
    '^Limiting retries for the idempotent producer',
  ].join('|'),
);

/** What a kafkajs log line is (its message, with the broker's answer after a colon when it names one). */
export function kafkaLogKind(said: string): 'unavailable' | 'routine' | 'other' {
  if (KAFKA_UNAVAILABLE.test(said)) return 'unavailable';
  return KAFKA_ROUTINE.test(said) ? 'routine' : 'other';
}

export function createKafka(config: Config, logger: Logger): Kafka {
  const outage = outageLog(logger, 'kafka client', { settleMs: KAFKA_RECOVERY_SETTLE_MS });
  const kafka = new Kafka({
    clientId: config.KAFKA_CLIENT_ID,
    brokers: config.KAFKA_BROKERS,
    connectionTimeout: 3000,
    requestTimeout: 10000,
    retry: { retries: 3, initialRetryTime: 300 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }) => {
        const { message, stack: _stack, ...extra } = log as typeof log & { stack?: unknown };
        // a response's line names the request; the broker's answer is in `error`
        const said = typeof extra.error === 'string' ? `${message}: ${extra.error}` : message;
        const kind = kafkaLogKind(said);
        if (kind === 'unavailable') outage.down(said, { kafka: extra });
        else if (kind === 'routine') logger.debug({ kafka: extra }, said);
        else if (level <= logLevel.ERROR) logger.error({ kafka: extra }, message);
        else if (level === logLevel.WARN) logger.warn({ kafka: extra }, message);
      },
  });
  // a consumer joining its group, the relay publishing or a readiness check ends the client's outage
  setKafkaClientOutage(kafka, outage);
  return kafka;
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
  /** the admin's client: a cluster that answers ends its outage in the log (kafkaReachable) */
  kafka?: Kafka;
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
  if (kafka && deps.kafka) kafkaReachable(deps.kafka);
  return { mongo, redis, kafka };
}
