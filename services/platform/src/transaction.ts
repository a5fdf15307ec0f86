import type { ClientSession, Connection } from 'mongoose';

/**
 * Multi-document transactions, for the few invariants that span several documents (a single document is
 * changed atomically by one conditional update, and a state change carries its events in the same update:
 * see events/src/outbox.ts). Today: one default billing entry per patient (services/reference
 * routes/patient-billings.ts).
 *
 * Two transactions that write the same document conflict: one of them fails with WriteConflict (code 112) and
 * is run again from the start. MongoDB labels that error TransientTransactionError and the driver's
 * `withTransaction` retries it by itself; DocumentDB's gateway reports the same code 112 (a PostgreSQL lock
 * timeout of 20 ms inside a transaction) WITHOUT the label, so the driver would not retry it. Hence this helper
 * retries on either, with a short jittered backoff (proved in transaction.int.test.ts).
 *
 * `fn` may run more than once: it must do all its reads and writes through `session` and keep no other side
 * effects. An error it throws (a 404, a 409) aborts the transaction and is passed on, never retried.
 */
export const WRITE_CONFLICT = 112;

export function isWriteConflict(err: unknown): boolean {
  const e = err as { code?: unknown; hasErrorLabel?: (label: string) => boolean } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === WRITE_CONFLICT || Boolean(e.hasErrorLabel?.('TransientTransactionError'));
}

export interface TransactionOptions {
  /** give up (pass the last write conflict on) after this long; default 10 s */
  timeoutMs?: number;
}

export async function inTransaction<T>(
  conn: Connection,
  fn: (session: ClientSession) => Promise<T>,
  opts: TransactionOptions = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  const session = await conn.startSession();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        let result: T | undefined;
        await session.withTransaction(async () => {
          result = await fn(session);
        });
        return result as T;
      } catch (err) {
        if (!isWriteConflict(err) || Date.now() > deadline) throw err;
        const base = Math.min(5 * 2 ** Math.min(attempt, 5), 100);
        await new Promise((r) => setTimeout(r, base / 2 + Math.random() * base));
      }
    }
  } finally {
    await session.endSession();
  }
}
