/**
 * Idempotent Kafka consumer runner.
 *
 * For every message:
 *  1. parse the envelope with zod; a message that fails (not JSON, wrong shape, unknown type,
 *     a type that does not belong to the topic) is a poison message: it is stored in
 *     `dead_letters` with the reason, and skipped (offset committed). Never crashes, never loops.
 *  2. de-duplicate: if `processed_events` has `${groupId}:${event.id}`, skip.
 *  3. run the handler; if it throws, retry with exponential backoff up to `maxAttempts`, then
 *     dead-letter the event (event, error message, attempt count) and move on.
 *  4. insert the `processed_events` marker.
 *
 * Crash window: if the process dies between 3 and 4, the event is delivered again and the
 * handler runs again. Handlers must therefore be idempotent themselves: derive ids of what they
 * create deterministically from the event (e.g. `${event.id}:${index}` or a natural key with a
 * unique index) and use conditional/upsert writes, so a second run changes nothing.
 *
 * Database failures (reading/writing markers or dead letters) are not the message's fault: they
 * propagate to kafkajs, which does not commit the offset and retries/restarts the consumer.
 *
 * `runBatchConsumer` is the batch mode (kafkajs `eachBatch`): the same envelope check, dead letters and
 * connect/subscribe/stop, but the handler gets a batch's valid events at once and must be idempotent by
 * itself (no markers); offsets are resolved only after it succeeded.
 */
import type { Consumer, ConsumerConfig, ConsumerRunConfig, Kafka, KafkaMessage } from 'kafkajs';
import type { Db } from 'mongodb';
import { safeParseEventJson, type AnyEvent } from './envelope';
import type { EventFamily } from './schemas';
import { ensureTopics, familyOfTopic, topicFor } from './topics';
import { restartCrashes } from './crash-restart';
import {
  Sleeper,
  backoffDelay,
  errorMessage,
  nativeDb,
  silentLogger,
  type BackoffOptions,
  type DbLike,
  type EventsLogger,
} from './util';
import {
  PROCESSED_EVENTS_COLLECTION,
  createIdempotentHandler,
  isDuplicateKey,
  mongoProcessedStore,
} from './processed';
import { DEAD_LETTERS_COLLECTION, type DeadLetter, headersToStrings, deadLetterSource } from './dead-letters';

/**
 * How long the broker holds a consumer's fetch when there is nothing new (kafkajs: 5 s). A stop waits for the
 * fetch in flight, so this bounds how long a consumer takes to stop (a deploy's SIGTERM, a test system's close);
 * a new message is delivered at once either way (docs/decisions.md "Consumer fetch wait").
 */
export const FETCH_MAX_WAIT_MS = 1_000;
/**
 * How long the group coordinator waits for a silent member before it hands the member's partitions to the others
 * (kafkajs: 30 s), and how often a member says it is alive. After a broker restart, or when a process dies, the
 * group rejoins only once the old member's session has run out, so this bounds how late events flow again. A
 * handler that runs longer calls `heartbeat()` (docs/decisions.md "Consumer session").
 */
export const SESSION_TIMEOUT_MS = 10_000;
export const HEARTBEAT_INTERVAL_MS = 3_000;
export interface HandlerContext {
  family: EventFamily;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  headers: Record<string, string>;
  /** 1 for the first try, up to maxAttempts. */
  attempt: number;
}

export type EventHandler = (event: AnyEvent, ctx: HandlerContext) => Promise<void> | void;

/** What both runners take: where to consume from and where to dead-letter. */
interface ConsumerBaseOptions {
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
  partitionsConsumedConcurrently?: number;
  /** Extra kafkajs consumer settings (sessionTimeout, heartbeatInterval, ...). */
  consumerConfig?: Omit<ConsumerConfig, 'groupId'>;
}

export interface RunConsumerOptions extends ConsumerBaseOptions {
  handler: EventHandler;
  /** Handler tries before the event is dead-lettered. Default 5. */
  maxAttempts?: number;
  /** Delay between handler tries. Default 200 ms doubling to 5 s, ±20% jitter. */
  retryBackoff?: BackoffOptions;
  processedCollection?: string;
}

export interface BatchHandlerContext {
  family: EventFamily;
  topic: string;
  partition: number;
  heartbeat(): Promise<void>;
}

/** What a batch handler may report: events it could not handle for a reason of their own (dead-lettered). */
export interface BatchHandlerResult {
  refused?: readonly { event: AnyEvent; error: string }[];
}

/** The valid events of (a slice of) one partition's batch, in offset order; may hold one event id twice. */
export type BatchHandler = (
  events: AnyEvent[],
  ctx: BatchHandlerContext,
) => Promise<BatchHandlerResult | void> | BatchHandlerResult | void;

export interface RunBatchConsumerOptions extends ConsumerBaseOptions {
  handler: BatchHandler;
  /** Messages handed over (and resolved) at once at most; a larger kafkajs batch is cut. Default 500. */
  maxBatchSize?: number;
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

class ConsumerStoppingError extends Error {
  constructor() {
    super('consumer is stopping');
    this.name = 'ConsumerStoppingError';
  }
}

class HandlerFailedError extends Error {
  constructor(
    readonly original: unknown,
    readonly attempts: number,
  ) {
    super(errorMessage(original));
    this.name = 'HandlerFailedError';
  }
}

/**
 * What `runConsumer` and `runBatchConsumer` share: metrics, dead letters (poison and handler-failed), the
 * envelope check, and the kafkajs consumer's connect, subscribe, join/crash logging and stop.
 */
function consumerBase(options: ConsumerBaseOptions) {
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

  async function deadLetter(letter: DeadLetter): Promise<void> {
    try {
      await db().collection<DeadLetter>(deadLetterCollection).insertOne(letter);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    metrics.deadLettered++;
  }

  /** The message's event, or null once a poison message (not an event, or not of this topic) is dead-lettered. */
  async function parseOrDeadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
  ): Promise<{ event: AnyEvent; family: EventFamily } | null> {
    const family = familyOfTopic(topic, topicPrefix);
    const parsed = safeParseEventJson(message.value);
    let reason: string | null = null;
    if (!parsed.ok) reason = parsed.error.message;
    else if (parsed.family !== family)
      reason = `event type '${parsed.event.type}' does not belong to topic ${topic}`;
    if (parsed.ok && !reason) return { event: parsed.event, family: parsed.family };
    const raw = parsed.ok ? parsed.event : null;
    await deadLetter({
      _id: `${groupId}:${topic}:${partition}:${message.offset}`,
      reason: 'unparseable',
      error: (reason ?? 'unparseable').slice(0, 5000),
      attempts: 0,
      eventId: raw?.id ?? null,
      eventType: raw?.type ?? null,
      subject: raw?.subject ?? null,
      ...deadLetterSource(groupId, topic, partition, message),
    });
    logger.error(
      { groupId, topic, partition, offset: message.offset, reason },
      'poison message dead-lettered',
    );
    return null;
  }

  async function deadLetterFailed(
    topic: string,
    partition: number,
    message: KafkaMessage,
    event: AnyEvent,
    error: string,
    attempts: number,
  ): Promise<void> {
    await deadLetter({
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
  async function start(
    run: Pick<ConsumerRunConfig, 'eachMessage' | 'eachBatch' | 'eachBatchAutoResolve'>,
    onStop: () => void = () => {},
  ): Promise<RunningConsumer> {
    const consumer = kafka.consumer({
      maxWaitTimeInMs: FETCH_MAX_WAIT_MS,
      sessionTimeout: SESSION_TIMEOUT_MS,
      heartbeatInterval: HEARTBEAT_INTERVAL_MS,
      ...options.consumerConfig,
      groupId,
    });
    let resolveReady!: () => void;
    const ready = new Promise<void>((resolve) => (resolveReady = resolve));
    const subscribeAndRun = async () => {
      await consumer.subscribe({ topics, fromBeginning });
      await consumer.run({
        autoCommit: true,
        partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
        ...run,
      });
    };
    const crashes = restartCrashes(consumer, {
      groupId,
      logger,
      resubscribe: subscribeAndRun,
      onRestarted: () => void metrics.restarts++,
    });
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      logger.info(
        { groupId, memberId: e.payload.memberId, assignment: e.payload.memberAssignment },
        'consumer joined group',
      );
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

  return { groupId, logger, metrics, parseOrDeadLetter, deadLetterFailed, start };
}

/** Connect, subscribe and run an idempotent consumer. Returns once consuming has started. */
export async function runConsumer(options: RunConsumerOptions): Promise<RunningConsumer> {
  const { groupId, handler, maxAttempts = 5, processedCollection = PROCESSED_EVENTS_COLLECTION } = options;
  if (!options.topics.length) throw new Error('runConsumer needs at least one topic family');
  if (maxAttempts < 1) throw new Error('maxAttempts must be >= 1');
  const base = consumerBase(options);
  const { logger, metrics } = base;
  const retryBackoff: BackoffOptions = { initialMs: 200, maxMs: 5_000, jitter: 0.2, ...options.retryBackoff };
  const store = mongoProcessedStore(options.db, groupId, processedCollection);
  const sleepers = new Set<Sleeper>();
  const sleep = async (ms: number) => {
    const s = new Sleeper();
    sleepers.add(s);
    try {
      await s.sleep(ms);
    } finally {
      sleepers.delete(s);
    }
  };
  let stopping = false;

  const idempotent = createIdempotentHandler<HandlerContext & { heartbeat: () => Promise<void> }>(
    store,
    async (event, ctx) => {
      for (let attempt = 1; ; attempt++) {
        if (stopping) throw new ConsumerStoppingError();
        try {
          await handler(event, { ...ctx, attempt });
          return;
        } catch (err) {
          metrics.failedAttempts++;
          if (attempt >= maxAttempts) throw new HandlerFailedError(err, attempt);
          const delay = backoffDelay(attempt, retryBackoff);
          logger.warn(
            {
              groupId,
              eventId: event.id,
              type: event.type,
              attempt,
              maxAttempts,
              delayMs: delay,
              err: errorMessage(err),
            },
            'event handler failed; retrying',
          );
          await ctx.heartbeat().catch(() => undefined);
          await sleep(delay);
        }
      }
    },
  );

  return base.start(
    {
      eachMessage: async ({ topic, partition, message, heartbeat }) => {
        const parsed = await base.parseOrDeadLetter(topic, partition, message);
        if (!parsed) return;
        const event = parsed.event;
        const ctx = {
          family: parsed.family,
          topic,
          partition,
          offset: message.offset,
          key: message.key ? message.key.toString() : null,
          headers: headersToStrings(message.headers),
          attempt: 1,
          heartbeat,
        };
        try {
          const outcome = await idempotent(event, ctx, { topic, partition, offset: message.offset });
          if (outcome === 'duplicate') {
            metrics.duplicates++;
            logger.debug({ groupId, eventId: event.id, type: event.type }, 'duplicate event skipped');
          } else {
            metrics.processed++;
          }
        } catch (err) {
          if (!(err instanceof HandlerFailedError)) throw err; // stopping or a database error: do not commit
          await base.deadLetterFailed(
            topic,
            partition,
            message,
            event,
            errorMessage(err.original),
            err.attempts,
          );
        }
      },
    },
    () => {
      stopping = true;
      for (const s of sleepers) s.wake();
    },
  );
}

/**
 * Connect, subscribe and run a batch consumer: the handler gets the valid events of up to `maxBatchSize` messages
 * of one partition at once (kafkajs `eachBatch`). Envelope check, poison messages and dead letters as
 * `runConsumer`'s. Unlike it, no `processed_events` markers and no retries in process: the handler must be
 * idempotent by itself (a batch can be delivered again, and can hold one event twice). The slice's offsets are
 * resolved only after the handler returned (and the events it refused are dead-lettered as `handler-failed`, 1
 * attempt); a handler that throws (the store unreachable) leaves them unresolved, so kafkajs retries the batch
 * and nothing is committed past it. Returns once consuming has started.
 */
export async function runBatchConsumer(options: RunBatchConsumerOptions): Promise<RunningConsumer> {
  const { handler, maxBatchSize = 500 } = options;
  if (!options.topics.length) throw new Error('runBatchConsumer needs at least one topic family');
  if (maxBatchSize < 1) throw new Error('maxBatchSize must be >= 1');
  const base = consumerBase(options);
  const { metrics } = base;

  return base.start({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const { topic, partition } = batch;
      for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += maxBatchSize) {
        const messages = batch.messages.slice(i, i + maxBatchSize);
        const events: AnyEvent[] = [];
        const messageOf = new Map<string, KafkaMessage>();
        let family: EventFamily | null = null; // the topic's (every valid event is of it)
        for (const message of messages) {
          const parsed = await base.parseOrDeadLetter(topic, partition, message);
          if (!parsed) continue;
          family = parsed.family;
          events.push(parsed.event);
          messageOf.set(parsed.event.id, message);
        }
        let refused: BatchHandlerResult['refused'] = [];
        if (family) {
          const result = await handler(events, { family, topic, partition, heartbeat });
          refused = result?.refused ?? [];
        }
        for (const { event, error } of refused) {
          const message = messageOf.get(event.id);
          if (!message) throw new Error(`batch handler refused event ${event.id}, which is not in its batch`);
          await base.deadLetterFailed(topic, partition, message, event, error, 1);
        }
        metrics.processed += events.length - refused.length;
        resolveOffset(messages[messages.length - 1].offset);
        await heartbeat();
      }
    },
  });
}
