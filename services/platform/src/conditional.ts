import { conflict } from './errors';

/** How a conditional write behaves when it loses a race. */
export interface ConditionalOptions {
  /**
   * The client sent the version it had read: a lost race is a 409 at once (its edit was made on a record that
   * has changed since), not another round.
   */
  strict?: boolean;
  /** Rounds before a 409. Each round has a winner, so this only caps a pathological pile-up. Default 25. */
  attempts?: number;
  /** The 409's message (default: the generic conflict message). */
  message?: string;
}

/**
 * Optimistic concurrency, the one loop of every domain: `attempt` reads the record, decides the change from what
 * it read and writes it in one update conditional on what it read (its version, or the fields the rule relied
 * on), with its outbox events in that same update (`withOutbox`). It answers null when the write matched nothing
 * (the record changed in between); then it runs again, reading the new state and deciding again, as the same
 * request would have a moment later, after a pause of up to 10 ms so two losers do not meet again. A refusal is
 * thrown by `attempt` (the rule said no on the state read) and ends the loop.
 */
export async function conditionalWrite<T>(
  attempt: () => Promise<T | null>,
  opts: ConditionalOptions = {},
): Promise<T> {
  const rounds = opts.strict ? 1 : (opts.attempts ?? 25);
  for (let i = 0; i < rounds; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, Math.random() * 10));
    const done = await attempt();
    if (done !== null) return done;
  }
  throw conflict(opts.message);
}
