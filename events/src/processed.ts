/** Which events a consumer group has handled: the `processed_events` markers (`${groupId}:${eventId}`). */
import type { AnyEvent } from './envelope';
import { nativeDb, type DbLike } from './util';

export const PROCESSED_EVENTS_COLLECTION = 'processed_events';
/** Remembers which events a consumer group has processed. */
export interface ProcessedStore {
  has(eventId: string): Promise<boolean>;
  /** Record the event as processed; must tolerate an existing marker. */
  add(event: AnyEvent, info?: Record<string, unknown>): Promise<void>;
}

export type IdempotentOutcome = 'processed' | 'duplicate';

/**
 * Wrap a handler so an event id is handled at most once per store (a consumer group):
 * check the marker, run the handler, then write the marker.
 */
export function createIdempotentHandler<C = undefined>(
  store: ProcessedStore,
  handler: (event: AnyEvent, ctx: C) => Promise<void> | void,
): (event: AnyEvent, ctx: C, info?: Record<string, unknown>) => Promise<IdempotentOutcome> {
  return async (event, ctx, info) => {
    if (await store.has(event.id)) return 'duplicate';
    await handler(event, ctx);
    await store.add(event, info);
    return 'processed';
  };
}

/** In-memory store, for tests and tools. */
export function memoryProcessedStore(): ProcessedStore & { readonly ids: Set<string> } {
  const ids = new Set<string>();
  return {
    ids,
    async has(eventId) {
      return ids.has(eventId);
    },
    async add(event) {
      ids.add(event.id);
    },
  };
}

export function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 11000;
}

/** Markers in `processed_events`, `_id` = `${groupId}:${eventId}` (unique by construction). */
export function mongoProcessedStore(
  db: DbLike,
  groupId: string,
  collection = PROCESSED_EVENTS_COLLECTION,
): ProcessedStore {
  const coll = () => nativeDb(db).collection<{ _id: string } & Record<string, unknown>>(collection);
  return {
    async has(eventId) {
      return (await coll().countDocuments({ _id: `${groupId}:${eventId}` }, { limit: 1 })) > 0;
    },
    async add(event, info) {
      try {
        await coll().insertOne({
          _id: `${groupId}:${event.id}`,
          groupId,
          eventId: event.id,
          type: event.type,
          subject: event.subject,
          processedOn: new Date(),
          ...(info ?? {}),
        });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
  };
}

// ---------------------------------------------------------------------------
// Dead letters
// ---------------------------------------------------------------------------
