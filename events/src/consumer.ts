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
import type { EachMessagePayload, KafkaMessage } from 'kafkajs';
import type { AnyEvent } from './envelope';
import type { EventFamily } from './schemas';
import { Sleeper, backoffDelay, errorMessage, type BackoffOptions } from './util';
import { PROCESSED_EVENTS_COLLECTION, createIdempotentHandler, mongoProcessedStore } from './processed';
import { headersToStrings } from './dead-letters';
import { dependencyOf } from './dependency-errors';
import {
  consumerDeps,
  deadLetterFailed,
  parseOrDeadLetter,
  startConsumer,
  type ConsumerBaseOptions,
  type ConsumerDeps,
  type RunningConsumer,
} from './consumer-base';

export {
  FETCH_MAX_WAIT_MS,
  HEARTBEAT_INTERVAL_MS,
  SESSION_TIMEOUT_MS,
  type ConsumerMetrics,
  type RunningConsumer,
} from './consumer-base';

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

/** The longest pause between two tries of an event whose handler found a dependency away: the catch-up once it is back. */
export const DEPENDENCY_RETRY_MAX_MS = 2_000;

/** What the handler of `runConsumer` gets: the message's context, and the heartbeat of its batch. */
type MessageContext = HandlerContext & { heartbeat: () => Promise<void> };
type IdempotentHandler = ReturnType<typeof createIdempotentHandler<MessageContext>>;

/** The pauses between a consumer's handler tries, which its stop cuts short (and then no try follows). */
class RetryPauses {
  stopping = false;
  private readonly sleepers = new Set<Sleeper>();

  async sleep(ms: number): Promise<void> {
    const s = new Sleeper();
    this.sleepers.add(s);
    try {
      await s.sleep(ms);
    } finally {
      this.sleepers.delete(s);
    }
  }

  stop(): void {
    this.stopping = true;
    for (const s of this.sleepers) s.wake();
  }
}

interface RetrySettings {
  handler: EventHandler;
  maxAttempts: number;
  retryBackoff: BackoffOptions;
  pauses: RetryPauses;
}

/**
 * Run the handler, and again after a backoff while it throws, up to `maxAttempts` tries; then throw a
 * HandlerFailedError (the caller dead-letters the event). A stopping consumer throws ConsumerStoppingError instead
 * of trying again.
 */
async function handleWithRetries(
  deps: ConsumerDeps,
  settings: RetrySettings,
  event: AnyEvent,
  ctx: MessageContext,
): Promise<void> {
  const { groupId, logger, metrics } = deps;
  const { handler, maxAttempts, retryBackoff, pauses } = settings;
  for (let attempt = 1; ; attempt++) {
    if (pauses.stopping) throw new ConsumerStoppingError();
    try {
      await handler(event, { ...ctx, attempt });
      return;
    } catch (err) {
      metrics.failedAttempts++;
      // a service the handler needs is away (Redis for a job, the store): not the event's fault, so it is tried
      // again, as long as the outage lasts, and never dead-lettered (docs/decisions.md "A dependency away is a
      // 503"); the partition waits, in order. The fault drill found a TRF lost to a Redis outage this way.
      const away = dependencyOf(err);
      if (attempt >= maxAttempts && !away) throw new HandlerFailedError(err, attempt);
      const delay = away
        ? backoffDelay(Math.min(attempt, 6), { ...retryBackoff, maxMs: DEPENDENCY_RETRY_MAX_MS })
        : backoffDelay(attempt, retryBackoff);
      // an outage: one WARN when it starts (the client that noticed it logs the outage), then quiet
      logger[away && attempt > 1 ? 'debug' : 'warn'](
        {
          groupId,
          eventId: event.id,
          type: event.type,
          attempt,
          maxAttempts,
          ...(away ? { dependency: away } : {}),
          delayMs: delay,
          err: errorMessage(err),
        },
        away
          ? 'event handler found a dependency away; retrying until it is back'
          : 'event handler failed; retrying',
      );
      await ctx.heartbeat().catch(() => undefined);
      await pauses.sleep(delay);
    }
  }
}

/**
 * One message of `runConsumer`: the envelope check, then the idempotent handler; an event whose handler failed
 * for good is dead-lettered. A stop or a database error propagates (the offset is not committed).
 */
async function handleMessage(
  deps: ConsumerDeps,
  idempotent: IdempotentHandler,
  { topic, partition, message, heartbeat }: EachMessagePayload,
): Promise<void> {
  const { groupId, logger, metrics } = deps;
  const parsed = await parseOrDeadLetter(deps, topic, partition, message);
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
    await deadLetterFailed(deps, topic, partition, message, event, errorMessage(err.original), err.attempts);
  }
}

/** Connect, subscribe and run an idempotent consumer. Returns once consuming has started. */
export async function runConsumer(options: RunConsumerOptions): Promise<RunningConsumer> {
  const { groupId, handler, maxAttempts = 5, processedCollection = PROCESSED_EVENTS_COLLECTION } = options;
  if (!options.topics.length) throw new Error('runConsumer needs at least one topic family');
  if (maxAttempts < 1) throw new Error('maxAttempts must be >= 1');
  const deps = consumerDeps(options);
  const retryBackoff: BackoffOptions = { initialMs: 200, maxMs: 5_000, jitter: 0.2, ...options.retryBackoff };
  const store = mongoProcessedStore(options.db, groupId, processedCollection);
  const pauses = new RetryPauses();
  const settings: RetrySettings = { handler, maxAttempts, retryBackoff, pauses };
  const idempotent = createIdempotentHandler<MessageContext>(store, (event, ctx) =>
    handleWithRetries(deps, settings, event, ctx),
  );
  return startConsumer(deps, { eachMessage: (payload) => handleMessage(deps, idempotent, payload) }, () =>
    pauses.stop(),
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
  const deps = consumerDeps(options);
  const { metrics } = deps;

  return startConsumer(deps, {
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const { topic, partition } = batch;
      for (let i = 0; i < batch.messages.length && isRunning() && !isStale(); i += maxBatchSize) {
        const messages = batch.messages.slice(i, i + maxBatchSize);
        const events: AnyEvent[] = [];
        const messageOf = new Map<string, KafkaMessage>();
        let family: EventFamily | null = null; // the topic's (every valid event is of it)
        for (const message of messages) {
          const parsed = await parseOrDeadLetter(deps, topic, partition, message);
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
          await deadLetterFailed(deps, topic, partition, message, event, error, 1);
        }
        metrics.processed += events.length - refused.length;
        resolveOffset(messages[messages.length - 1].offset);
        await heartbeat();
      }
    },
  });
}
