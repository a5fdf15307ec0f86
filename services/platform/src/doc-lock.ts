import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Per-document write locks on Redis.
 *
 * Why: FerretDB v1 (the MongoDB-wire server on our machines) does not apply a single-document update
 * atomically: it reads the matching documents, then writes them back, so concurrent conditional updates can
 * all "win" (measured: 40 parallel `updateOne({_id, version: 0}, ...)` reported up to 23 winners) and a
 * concurrent `$push` can be lost. Every write that must be atomic (a state change with its outbox event, a
 * versioned update, a counter such as failed sign-ins, the outbox relay's removal of published entries) runs
 * inside `locks.run(collection, id, fn)`, which serializes writers of one document across all processes.
 * On real MongoDB the lock is redundant but harmless.
 *
 * The lock expires after ttlMs so a crashed holder cannot block a document for ever; release deletes only
 * the holder's own token.
 */
export class LockTimeoutError extends Error {
  constructor(key: string) {
    super(`Timed out waiting for the write lock on ${key}`);
  }
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface DocLockOptions {
  prefix?: string;
  ttlMs?: number;
  waitMs?: number;
}

export class DocLocks {
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly waitMs: number;

  constructor(
    private readonly redis: Redis,
    opts: DocLockOptions = {},
  ) {
    this.prefix = opts.prefix ?? 'oncotrf';
    this.ttlMs = opts.ttlMs ?? 15_000;
    this.waitMs = opts.waitMs ?? 10_000;
  }

  /** Run fn while holding the write lock of one document. */
  async run<T>(collection: string, id: string, fn: () => Promise<T>): Promise<T> {
    const key = `${this.prefix}:lock:${collection}:${id}`;
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + this.waitMs;
    let delay = 5;
    for (;;) {
      const ok = await this.redis.set(key, token, 'PX', this.ttlMs, 'NX');
      if (ok === 'OK') break;
      if (Date.now() > deadline) throw new LockTimeoutError(key);
      await new Promise((r) => setTimeout(r, delay + Math.floor(Math.random() * delay)));
      delay = Math.min(delay * 2, 100);
    }
    try {
      return await fn();
    } finally {
      await this.redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
  }
}

export type LockFn = <T>(collection: string, id: string, fn: () => Promise<T>) => Promise<T>;
