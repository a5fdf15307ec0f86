import { Queue, Worker, type Job, type JobsOptions, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { OutageLog } from '@onco/events';

/**
 * The queue registry. Each queue module (e.g. services/requisitions/src/workers/trf-pdf.ts) defines its name,
 * typed job data and processor once; the registry creates the Queue for producers everywhere and starts the
 * Worker only in processes that run workers. Failed jobs are kept (removeOnFail: false) for operators.
 */
export interface QueueDefinition<T> {
  name: string;
  concurrency?: number;
  attempts?: number;
  /** first retry delay; doubles on each attempt */
  backoffMs?: number;
  /**
   * How many times a job may lose its worker (a crash, or a lock not renewed in time on a busy process) before
   * BullMQ fails it for good; BullMQ's default is 1. Only a queue whose processor is safe to run again (an
   * idempotent send) should raise it.
   */
  maxStalledCount?: number;
  /**
   * This queue's lock on a job and its stalled-job check, when shorter than QUEUE_LOCK_MS: a job whose worker died
   * goes back to the queue within about twice this. Only for a processor that is safe to run again and does its
   * long work outside the event loop (a render in chromium), so that its lock is renewed in time.
   */
  lockMs?: number;
  /** the processor: a function, or the path of a sandboxed processor file */
  processor: Processor<T> | string;
}

export interface QueueHandle<T> {
  name: string;
  queue: Queue<T>;
  /** add a job; a deterministic jobId makes a duplicate add a no-op */
  add(data: T, opts?: JobsOptions & { jobId?: string }): Promise<Job<T>>;
}

export class QueueRegistry {
  private defs = new Map<string, QueueDefinition<any>>();
  private queues = new Map<string, Queue<any>>();
  private workers: Worker[] = [];

  constructor(
    private readonly connection: Redis,
    private readonly workerConnection: () => Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    /** QUEUE_LOCK_MS: a worker's lock on a job (renewed every half) and the stalled-job check's interval */
    private readonly lockMs = 30_000,
    /** the Redis connections' outage (createRedis): a worker's error while Redis is down is part of it (debug) */
    private readonly redisOutage?: OutageLog,
  ) {}

  define<T>(def: QueueDefinition<T>): QueueHandle<T> {
    this.defs.set(def.name, def);
    let q = this.queues.get(def.name) as Queue<T> | undefined;
    if (!q) {
      q = new Queue<T>(def.name, {
        connection: this.connection,
        prefix: this.prefix,
        defaultJobOptions: {
          attempts: def.attempts ?? 5,
          backoff: { type: 'exponential', delay: def.backoffMs ?? 1000 },
          removeOnComplete: { count: 1000, age: 7 * 24 * 3600 },
          removeOnFail: false,
        },
      });
      // without a listener BullMQ prints each connection error to stderr; while Redis is down they are part of
      // its outage (one WARN, createRedis)
      q.on('error', (err) => this.workerError(def.name, err));
      this.queues.set(def.name, q);
    }
    const queue = q;
    return {
      name: def.name,
      queue,
      add: (data, opts) => queue.add(def.name as any, data as any, opts as any) as Promise<Job<T>>,
    };
  }

  get(name: string): Queue | undefined {
    return this.queues.get(name);
  }

  names(): string[] {
    return [...this.defs.keys()];
  }

  /** Start a Worker for each defined queue, or for the named ones (in processes that run workers). */
  startWorkers(names?: readonly string[]): void {
    for (const def of this.defs.values()) {
      if (names && !names.includes(def.name)) continue;
      const w = new Worker(def.name, def.processor as any, {
        connection: this.workerConnection(),
        prefix: this.prefix,
        concurrency: def.concurrency ?? 1,
        lockDuration: Math.min(def.lockMs ?? this.lockMs, this.lockMs),
        stalledInterval: Math.min(def.lockMs ?? this.lockMs, this.lockMs),
        maxStalledCount: def.maxStalledCount ?? 1,
        autorun: true,
      });
      w.on('failed', (job, err) =>
        this.logger.warn(
          { queue: def.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
          'job failed',
        ),
      );
      w.on('error', (err) => this.workerError(def.name, err));
      this.workers.push(w);
    }
  }

  /** A queue's or a worker's error: while Redis is down each poll fails, and the outage's one WARN says so already. */
  private workerError(queue: string, err: Error) {
    if (this.redisOutage?.isDown) this.logger.debug({ queue, err: err.message }, 'worker error');
    else this.logger.error({ queue, err: err.message }, 'worker error');
  }

  /** Operators' view: counts per queue and the most recent failed jobs with their reasons. */
  async overview(failedLimit = 20) {
    return Promise.all(
      [...this.queues.entries()].map(async ([name, q]) => {
        const counts = await q.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
        const failed = await q.getFailed(0, failedLimit - 1);
        return {
          name,
          counts,
          failed: failed.map((j) => ({
            id: j.id,
            attemptsMade: j.attemptsMade,
            failedReason: j.failedReason,
            finishedOn: j.finishedOn ? new Date(j.finishedOn).toISOString() : null,
          })),
        };
      }),
    );
  }

  /** Graceful shutdown: workers finish their current job first, then the queues close. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers = [];
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
