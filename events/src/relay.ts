/**
 * The outbox relay: publishes the events waiting on documents (outbox.ts) to Kafka, in array order, and removes
 * exactly the published entries. At-least-once; consumers de-duplicate by event id (processed.ts).
 */
import { Partitioners, type Kafka, type Producer, type RetryOptions } from 'kafkajs';
import type { Collection, Db } from 'mongodb';
import { ensureTopics } from './topics';
import { KAFKA_RECOVERY_SETTLE_MS, kafkaReachable, outageLog, type OutageLog } from './outage-log';
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
  countPending,
  isEntrySpecificError,
  markFailed,
  pullEntries,
  toTopicMessages,
  type OutboxDoc,
} from './relay-documents';

export interface OutboxRelayOptions {
  kafka: Kafka;
  /** A mongoose Connection (must be open when passes run) or a mongodb Db. */
  db: DbLike;
  /** Collections whose documents carry an `outbox` array. */
  collections: string[];
  logger?: EventsLogger;
  /** Delay between passes when idle (ms). Default 500. */
  pollIntervalMs?: number;
  /** Documents read per collection per pass. Default 100. */
  batchSize?: number;
  /** Entries of one document published per pass (the oldest first). Default 100. */
  maxEntriesPerDocument?: number;
  /** Prefix applied to every entry's topic (environment or test run). */
  topicPrefix?: string;
  /** Backoff after failed passes. Default 500 ms doubling to 30 s, ±20% jitter. */
  backoff?: BackoffOptions;
  /** kafkajs retry settings of the producer's own send retries within one pass. */
  producerRetry?: RetryOptions;
  /** Create the four topics (3 partitions) with this prefix before the first send. Default true. */
  ensureTopics?: boolean;
}

export interface RelayPassResult {
  /** Entries published and removed in this pass. */
  published: number;
  /** Documents whose entries could not be published in this pass. */
  failedDocuments: number;
  /** True if some collection had a full batch (more may be waiting). */
  more: boolean;
}

export interface OutboxRelayMetrics {
  published: number;
  failures: number;
  passes: number;
  consecutiveFailures: number;
  lastError: string | null;
  lastPublishedOn: Date | null;
}

/** The longest pause between two publishing tries of the relay while Kafka is away. */
export const RELAY_BACKOFF_MAX_MS = 1_000;

const DEFAULT_PRODUCER_RETRY: RetryOptions = { retries: 3, initialRetryTime: 200, maxRetryTime: 3_000 };

/**
 * Publishes outbox entries to Kafka and removes them from their documents.
 *
 *   const relay = new OutboxRelay({ kafka, db: mongoose.connection, collections: ['requisitions'], logger });
 *   relay.start();            // background loop
 *   relay.nudge();            // after a write, for low latency
 *   await relay.stop();       // on shutdown
 */
export class OutboxRelay {
  readonly metrics: OutboxRelayMetrics = {
    published: 0,
    failures: 0,
    passes: 0,
    consecutiveFailures: 0,
    lastError: null,
    lastPublishedOn: null,
  };

  private readonly kafka: Kafka;
  private readonly dbLike: DbLike;
  private readonly collections: string[];
  private readonly logger: EventsLogger;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxEntriesPerDocument: number;
  private readonly topicPrefix: string | undefined;
  private readonly backoff: BackoffOptions;
  private readonly producerRetry: RetryOptions;

  private readonly shouldEnsureTopics: boolean;
  private topicsEnsured = false;
  private producer: Producer | null = null;
  private running = false;
  private loopPromise: Promise<void> | null = null;
  private passChain: Promise<unknown> = Promise.resolve();
  private nudged = false;
  private readonly idleSleeper = new Sleeper();
  private readonly backoffSleeper = new Sleeper();
  /** failed passes: one WARN when they start, one INFO once a pass succeeds (decisions.md "One log line per outage") */
  private readonly outage: OutageLog;

  constructor(options: OutboxRelayOptions) {
    this.kafka = options.kafka;
    this.dbLike = options.db;
    this.collections = [...options.collections];
    this.logger = options.logger ?? silentLogger;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.batchSize = options.batchSize ?? 100;
    this.maxEntriesPerDocument = options.maxEntriesPerDocument ?? 100;
    this.topicPrefix = options.topicPrefix;
    // at most 2 s between tries while Kafka is away: the events wait at most that long once it is back (the fault
    // drill measured 18 s with 30 s; docs/drill.md); the outage is still logged once
    this.backoff = { initialMs: 500, maxMs: RELAY_BACKOFF_MAX_MS, jitter: 0.2, ...options.backoff };
    this.producerRetry = options.producerRetry ?? DEFAULT_PRODUCER_RETRY;
    this.shouldEnsureTopics = options.ensureTopics ?? true;
    this.outage = outageLog(this.logger, 'outbox relay', { settleMs: KAFKA_RECOVERY_SETTLE_MS });
  }

  /** Entries published since start. */
  get published(): number {
    return this.metrics.published;
  }

  /** Failed passes (Kafka or database errors) since start. */
  get failures(): number {
    return this.metrics.failures;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Number of entries still waiting, over all collections. */
  async pending(): Promise<number> {
    return countPending(nativeDb(this.dbLike), this.collections);
  }

  /** Start the background loop (no-op if already running). Never throws for Kafka/DB errors. */
  start(): void {
    if (this.running) return;
    if (this.collections.length === 0)
      this.logger.warn({}, 'outbox relay started without collections: nothing to publish');
    this.running = true;
    this.loopPromise = this.loop();
    this.logger.info(
      { collections: this.collections, topicPrefix: this.topicPrefix ?? null },
      'outbox relay started',
    );
  }

  /** Ask for an immediate pass (e.g. right after a write). Does not cut a failure backoff short. */
  nudge(): void {
    this.nudged = true;
    this.idleSleeper.wake();
  }

  /**
   * Run one pass now (serialized with the background loop) and return what it did.
   * Throws if the pass failed (Kafka or database error); the entries stay pending.
   */
  runOnce(): Promise<RelayPassResult> {
    const run = this.passChain.then(() => this.pass());
    this.passChain = run.catch(() => undefined);
    return run;
  }

  /** Stop the loop after the in-flight pass and disconnect the producer. */
  async stop(): Promise<void> {
    this.running = false;
    this.idleSleeper.wake();
    this.backoffSleeper.wake();
    await this.loopPromise?.catch(() => undefined);
    this.loopPromise = null;
    await this.passChain.catch(() => undefined);
    await this.closeProducer();
    this.logger.info(
      { published: this.metrics.published, failures: this.metrics.failures },
      'outbox relay stopped',
    );
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let more = false;
      try {
        const result = await this.runOnce();
        more = result.more;
      } catch {
        // counted and logged in pass()
      }
      if (!this.running) break;
      if (this.metrics.consecutiveFailures > 0) {
        const delay = backoffDelay(this.metrics.consecutiveFailures, this.backoff);
        this.logger.debug(
          { delayMs: delay, consecutiveFailures: this.metrics.consecutiveFailures },
          'outbox relay backing off',
        );
        await this.backoffSleeper.sleep(delay);
      } else if (more || this.nudged) {
        this.nudged = false;
      } else {
        await this.idleSleeper.sleep(this.pollIntervalMs);
        this.nudged = false;
      }
    }
  }

  private async pass(): Promise<RelayPassResult> {
    this.metrics.passes++;
    const result: RelayPassResult = { published: 0, failedDocuments: 0, more: false };
    try {
      const db = nativeDb(this.dbLike);
      for (const name of this.collections) {
        const r = await this.passCollection(db, name);
        result.published += r.published;
        result.failedDocuments += r.failedDocuments;
        result.more ||= r.more;
      }
    } catch (err) {
      this.metrics.failures++;
      this.metrics.consecutiveFailures++;
      this.metrics.lastError = errorMessage(err);
      this.outage.down(err, {
        consecutiveFailures: this.metrics.consecutiveFailures,
        what: 'outbox relay pass failed; entries stay pending',
      });
      throw err;
    }
    if (result.failedDocuments > 0 && result.published === 0) {
      this.metrics.failures++;
      this.metrics.consecutiveFailures++;
    } else {
      this.metrics.consecutiveFailures = 0;
      this.outage.up({ published: result.published });
    }
    return result;
  }

  private async passCollection(db: Db, name: string): Promise<RelayPassResult> {
    const coll = db.collection(name);
    const read = (await coll
      .find({ 'outbox.0': { $exists: true } }, { projection: { outbox: 1 } })
      .sort({ 'outbox.0.createdOn': 1, _id: 1 })
      .limit(this.batchSize)
      .toArray()) as OutboxDoc[];
    // Publish at most maxEntriesPerDocument per document: always a prefix, so order holds.
    let truncated = false;
    const docs = read.map((d) => {
      if (d.outbox.length <= this.maxEntriesPerDocument) return d;
      truncated = true;
      return { ...d, outbox: d.outbox.slice(0, this.maxEntriesPerDocument) };
    });
    const result: RelayPassResult = {
      published: 0,
      failedDocuments: 0,
      more: docs.length >= this.batchSize || truncated,
    };
    if (docs.length === 0) return result;

    let sent: OutboxDoc[] = [];
    const failed: { doc: OutboxDoc; err: unknown }[] = [];
    try {
      const producer = await this.getProducer();
      try {
        await producer.sendBatch({ acks: -1, topicMessages: toTopicMessages(docs, this.topicPrefix) });
        sent = docs;
      } catch (err) {
        if (!isEntrySpecificError(err) || docs.length === 1) throw err;
        // One document's entries are rejected by Kafka (e.g. too large): isolate it so the
        // others still flow. Its entries stay pending (never dropped) and are logged.
        for (const doc of docs) {
          try {
            await producer.sendBatch({ acks: -1, topicMessages: toTopicMessages([doc], this.topicPrefix) });
            sent.push(doc);
          } catch (docErr) {
            if (!isEntrySpecificError(docErr)) throw docErr;
            failed.push({ doc, err: docErr });
          }
        }
      }
    } catch (err) {
      // Kafka unavailable (or similar): keep every entry, record the attempt, recreate the producer.
      await markFailed(
        coll,
        docs.filter((d) => !sent.includes(d)),
        err,
        this.logger,
      );
      await this.closeProducer();
      if (sent.length > 0) await this.removePublished(coll, sent);
      throw err;
    }

    if (sent.length > 0) {
      result.published = await this.removePublished(coll, sent);
    }
    for (const { doc, err } of failed) {
      this.logger.error(
        {
          collection: name,
          documentId: String(doc._id),
          entryIds: doc.outbox.map((e) => e.id),
          err: errorMessage(err),
        },
        'kafka rejected outbox entries; they stay pending',
      );
      await markFailed(coll, [doc], err, this.logger);
      result.failedDocuments++;
    }
    return result;
  }

  /** Remove exactly the published entries (relay-documents.ts `pullEntries`) and count them. */
  private async removePublished(coll: Collection, docs: OutboxDoc[]): Promise<number> {
    kafkaReachable(this.kafka); // Kafka took the batch
    const count = await pullEntries(coll, docs);
    this.metrics.published += count;
    this.metrics.lastPublishedOn = new Date();
    this.logger.debug(
      { collection: coll.collectionName, documents: docs.length, entries: count },
      'outbox entries published',
    );
    return count;
  }

  private async getProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    if (this.shouldEnsureTopics && !this.topicsEnsured) {
      const created = await ensureTopics(this.kafka, this.topicPrefix);
      if (created.length) this.logger.info({ topics: created }, 'created topics');
      this.topicsEnsured = true;
    }
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      retry: this.producerRetry,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    try {
      await producer.connect();
    } catch (err) {
      await producer.disconnect().catch(() => undefined);
      throw err;
    }
    this.producer = producer;
    return producer;
  }

  private async closeProducer(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    if (producer) await producer.disconnect().catch(() => undefined);
  }
}
