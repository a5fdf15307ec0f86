/**
 * Small shared helpers: logger type, backoff, interruptible sleep, db resolution.
 */
import type { Db } from 'mongodb';

type LogFn = (obj: Record<string, unknown>, msg?: string) => void;
/** The subset of a pino logger this package uses (a pino logger fits as is). */
export interface EventsLogger {
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

const noop = () => {};
export const silentLogger: EventsLogger = { debug: noop, info: noop, warn: noop, error: noop };

export interface BackoffOptions {
  /** Delay after the first failure (ms). */
  initialMs?: number;
  /** Upper bound (ms). */
  maxMs?: number;
  /** Random spread as a fraction of the delay: 0.2 = ±20%. */
  jitter?: number;
}

/**
 * Exponential backoff with jitter: initialMs * 2^(attempt-1), capped at maxMs, then spread by
 * ±jitter. `attempt` is the number of consecutive failures so far (1 for the first).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const initial = options.initialMs ?? 500;
  const max = options.maxMs ?? 30_000;
  const jitter = options.jitter ?? 0.2;
  const n = Math.max(1, Math.floor(attempt));
  const base = Math.min(max, initial * 2 ** Math.min(n - 1, 30));
  const spread = base * jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(Math.min(max, base + spread)));
}

/** A sleep that can be cut short with `wake()`. */
export class Sleeper {
  private timer: NodeJS.Timeout | undefined;
  private resolve: (() => void) | undefined;

  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      this.resolve = resolve;
      this.timer = setTimeout(() => this.wake(), ms);
    });
  }

  /** End the current sleep now (no-op when not sleeping). */
  wake(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const r = this.resolve;
    this.resolve = undefined;
    r?.();
  }

  get sleeping(): boolean {
    return this.resolve !== undefined;
  }
}

/** A mongoose Connection (anything with a `db` once open) or a mongodb Db. */
export type DbLike = Db | { db?: Db | null | undefined; readyState?: number };

/** The native mongodb Db behind a mongoose Connection, or the Db itself. */
export function nativeDb(db: DbLike): Db {
  if (
    typeof (db as Db).collection === 'function' &&
    typeof (db as Db).command === 'function' &&
    !('readyState' in db)
  ) {
    return db as Db;
  }
  const inner = (db as { db?: Db | null }).db;
  if (!inner) throw new Error('mongoose connection is not open yet (connection.db is undefined)');
  return inner;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
