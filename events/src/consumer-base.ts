/**
 * What `runConsumer` and `runBatchConsumer` (consumer.ts) share: metrics, dead letters (poison and handler-failed),
 * the envelope check, and the kafkajs consumer's connect, subscribe, join/crash logging and stop. Each phase is a
 * function of the consumer's resolved settings (`ConsumerDeps`, made once by `consumerDeps`).
 */
import type { Consumer, ConsumerConfig, ConsumerRunConfig, Kafka, KafkaMessage } from 'kafkajs';
import type { Db } from 'mongodb';
import { safeParseEventJson, type AnyEvent } from './envelope';
import type { EventFamily } from './schemas';
import { DEFAULT_PARTITIONS, ensureTopics, familyOfTopic, topicFor } from './topics';
import { restartCrashes } from './crash-restart';
import { keepMemberIdAcrossRestarts } from './member-id';
import { KAFKA_RECOVERY_SETTLE_MS, kafkaReachable, outageLog } from './outage-log';
import { nativeDb, silentLogger, type DbLike, type EventsLogger } from './util';
import { isDuplicateKey } from './processed';
import { DEAD_LETTERS_COLLECTION, type DeadLetter, deadLetterSource } from './dead-letters';

/**
 * How long the broker holds a consumer's fetch when there is nothing new (kafkajs: 5 s). A stop waits for the
 * fetch in flight, so this bounds how long a consumer takes to stop (a deploy's SIGTERM, a test system's close);
 * a new message is delivered at once either way (docs/decisions.md "Consumer fetch wait").
 */
export const FETCH_MAX_WAIT_MS = 1_000;
/**
 * How long the group coordinator waits for a silent member before it hands the member's partitions to the others
 * (kafkajs: 30 s), and how often a member says it is alive. When a process dies, the group rebalances only once
 * its member's session has run out, so this bounds how late its partitions flow again (after a broker restart a
 * consumer rejoins as the member it was, member-id.ts, and need not wait). A handler that runs longer calls
 * `heartbeat()` (docs/decisions.md "Consumer session").
 */
export const SESSION_TIMEOUT_MS = 10_000;
export const HEARTBEAT_INTERVAL_MS = 3_000;
/** The longest pause between a consumer's retries (and before kafkajs restarts it after a crash). */
export const CONSUMER_RETRY_MAX_MS = 1_000;

/** What both runners take: where to consume from and where to dead-letter. */
export interface ConsumerBaseOptions {
  kafka: Kafka;
  /** A mongoose Connection (open) or a mongodb Db, for processed_events and dead_letters. */
  db: DbLike;
  groupId: string;
  /** Families to consume. */
  topics: readonly EventFamily[];
  logger?: EventsLogger;
  topicPrefix?: string;
  /** Where a new group starts. Default true (a new consumer catches up on retained events). */
  fromBeginning?: boolean;
  /** Create missing topics (3 partitions) before subscribing. Default true. */
  ensureTopics?: boolean;
  deadLetterCollection?: string;
  /**
   * Partitions handled at once (each partition's events still one after another, in order). Default: a topic's
   * partitions (DEFAULT_PARTITIONS), so one process works off a backlog on every partition at once
   * (docs/decisions.md "Consumer session").
   */
  partitionsConsumedConcurrently?: number;
  /** Extra kafkajs consumer settings (sessionTimeout, heartbeatInterval, ...). */
  consumerConfig?: Omit<ConsumerConfig, 'groupId'>;
}

export interface ConsumerMetrics {
  processed: number;
  duplicates: number;
  deadLettered: number;
  failedAttempts: number;
  /** Crashes kafkajs would not restart, restarted by `start` (a broker restart can cause them). */
  restarts: number;
}

export interface RunningConsumer {
  /** Resolves when the consumer has joined its group the first time. */
  readonly ready: Promise<void>;
  readonly metrics: ConsumerMetrics;
  readonly consumer: Consumer;
  /** Stop consuming (in-flight message finishes or is left uncommitted) and disconnect. */
  stop(): Promise<void>;
}

/** A consumer's settings, resolved once, and its metrics: what every phase below works with. */
export interface ConsumerDeps {
  options: ConsumerBaseOptions;
  kafka: Kafka;
  groupId: string;
  topicPrefix: string | undefined;
  fromBeginning: boolean;
  deadLetterCollection: string;
  logger: EventsLogger;
  /** The consumed topics' names (prefixed). */
  topics: string[];
  db: () => Db;
  metrics: ConsumerMetrics;
}

export function consumerDeps(options: ConsumerBaseOptions): ConsumerDeps {
  const {
    kafka,
    groupId,
    topicPrefix,
    fromBeginning = true,
    deadLetterCollection = DEAD_LETTERS_COLLECTION,
  } = options;
  const logger = options.logger ?? silentLogger;
  const topics = options.topics.map((f) => topicFor(f, topicPrefix));
  const db = (): Db => nativeDb(options.db);
  const metrics: ConsumerMetrics = {
    processed: 0,
    duplicates: 0,
    deadLettered: 0,
    failedAttempts: 0,
    restarts: 0,
  };
  return {
    options,
    kafka,
    groupId,
    topicPrefix,
    fromBeginning,
    deadLetterCollection,
    logger,
    topics,
    db,
    metrics,
  };
}

async function deadLetter(deps: ConsumerDeps, letter: DeadLetter): Promise<void> {
  try {
    await deps.db().collection<DeadLetter>(deps.deadLetterCollection).insertOne(letter);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  deps.metrics.deadLettered++;
}

/** The message's event, or null once a poison message (not an event, or not of this topic) is dead-lettered. */
export async function parseOrDeadLetter(
  deps: ConsumerDeps,
  topic: string,
  partition: number,
  message: KafkaMessage,
): Promise<{ event: AnyEvent; family: EventFamily } | null> {
  const { groupId, logger } = deps;
  const family = familyOfTopic(topic, deps.topicPrefix);
  const parsed = safeParseEventJson(message.value);
  let reason: string | null = null;
  if (!parsed.ok) reason = parsed.error.message;
  else if (parsed.family !== family)
    reason = `event type '${parsed.event.type}' does not belong to topic ${topic}`;
  if (parsed.ok && !reason) return { event: parsed.event, family: parsed.family };
  const raw = parsed.ok ? parsed.event : null;
  await deadLetter(deps, {
    _id: `${groupId}:${topic}:${partition}:${message.offset}`,
    reason: 'unparseable',
    error: (reason ?? 'unparseable').slice(0, 5000),
    attempts: 0,
    eventId: raw?.id ?? null,
    eventType: raw?.type ?? null,
    subject: raw?.subject ?? null,
    ...deadLetterSource(groupId, topic, partition, message),
  });
  logger.error({ groupId, topic, partition, offset: message.offset, reason }, 'poison message dead-lettered');
  return null;
}

export async function deadLetterFailed(
  deps: ConsumerDeps,
  topic: string,
  partition: number,
  message: KafkaMessage,
  event: AnyEvent,
  error: string,
  attempts: number,
): Promise<void> {
  const { groupId, logger } = deps;
  await deadLetter(deps, {
    _id: `${groupId}:${event.id}`,
    reason: 'handler-failed',
    error: error.slice(0, 5000),
    attempts,
    eventId: event.id,
    eventType: event.type,
    subject: event.subject,
    ...deadLetterSource(groupId, topic, partition, message),
  });
  logger.error(
    { groupId, eventId: event.id, type: event.type, attempts, err: error },
    'event handler failed permanently; event dead-lettered',
  );
}

/**
 * Connect, subscribe and run; `onStop` runs before the disconnect. A crash kafkajs gives up on is restarted
 * (crash-restart.ts).
 */
export async function startConsumer(
  deps: ConsumerDeps,
  run: Pick<ConsumerRunConfig, 'eachMessage' | 'eachBatch' | 'eachBatchAutoResolve'>,
  onStop: () => void = () => {},
): Promise<RunningConsumer> {
  const { options, kafka, groupId, topicPrefix, topics, fromBeginning, logger, metrics } = deps;
  // a restart after a crash rejoins as the member it was, so the group need not wait out its old session
  keepMemberIdAcrossRestarts();
  const consumer = kafka.consumer({
    maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
    sessionTimeout: SESSION_TIMEOUT_MS,
    heartbeatInterval: HEARTBEAT_INTERVAL_MS,
    // a crash kafkajs restarts by itself waits its last retry's pause: at most a second, so a consumer is back
    // within about a second of Kafka (the client's default grows to 2.4 s)
    retry: { retries: 3, initialRetryTime: 300, maxRetryTime: CONSUMER_RETRY_MAX_MS },
    ...options.consumerConfig,
    groupId,
  });
  let resolveReady!: () => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const subscribeAndRun = async () => {
    await consumer.subscribe({ topics, fromBeginning });
    await consumer.run({
      autoCommit: true,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? DEFAULT_PARTITIONS,
      ...run,
    });
  };
  // a crash starts the group's outage (one WARN), its next join ends it (one INFO): docs/decisions.md "One log
  // line per outage"
  const outage = outageLog(logger, `kafka consumer ${groupId}`, { settleMs: KAFKA_RECOVERY_SETTLE_MS });
  const crashes = restartCrashes(consumer, {
    groupId,
    logger,
    outage,
    resubscribe: subscribeAndRun,
    onRestarted: () => void metrics.restarts++,
  });
  consumer.on(consumer.events.GROUP_JOIN, (e) => {
    const joined = { groupId, memberId: e.payload.memberId, assignment: e.payload.memberAssignment };
    if (outage.isDown) {
      logger.debug(joined, 'consumer joined group');
      outage.up({ groupId, memberId: e.payload.memberId });
    } else {
      logger.info(joined, 'consumer joined group');
    }
    kafkaReachable(kafka);
    resolveReady();
  });

  if (options.ensureTopics ?? true) await ensureTopics(kafka, topicPrefix, { families: options.topics });
  await consumer.connect();
  try {
    await subscribeAndRun();
  } catch (err) {
    await consumer.disconnect().catch(() => undefined);
    throw err;
  }
  logger.info({ groupId, topics }, 'consumer started');

  return {
    ready,
    metrics,
    consumer,
    async stop() {
      await crashes.stop();
      onStop();
      await consumer.disconnect();
      logger.info({ groupId, ...metrics }, 'consumer stopped');
    },
  };
}
