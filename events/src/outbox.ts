/**
 * Transactional outbox without multi-document transactions.
 *
 * A state change and the events it causes are written in ONE single-document update: the
 * events are appended to the document's own `outbox` array (`$push`). MongoDB applies a
 * single-document update atomically, so either both the change and its events are committed
 * or neither is. The OutboxRelay later publishes the entries to Kafka, in array order, and
 * removes exactly the published entries with `$pull` by entry id: an entry pushed between the
 * relay's read and its removal stays (the `$pull` and the `$push` are each atomic).
 *
 * Delivery is at-least-once: a crash between the Kafka send and the `$pull` re-sends the
 * entries on the next pass. Consumers de-duplicate by event id (see consumer.ts).
 *
 * Index note: the relay creates no index. Its scan `{'outbox.0': {$exists: true}}` reads at
 * most `batchSize` documents per collection per pass, and documents only carry entries for
 * the short time until they are published. If a collection grows large, its owning service can
 * add a partial index `{ 'outbox.0.createdOn': 1 }` with
 * `partialFilterExpression: { 'outbox.0': { $exists: true } }`, which serves this scan.
 */
import type { AnyEvent } from './envelope';
import { familyOfType } from './envelope';
import { TOPICS, partitionKey } from './topics';

/** The field on each document that holds its pending events. */
export const OUTBOX_FIELD = 'outbox';

/** One pending event, as stored on the document. */
export interface OutboxEntry {
  /** The event id (also the Kafka header `event-id`). */
  id: string;
  /** Topic WITHOUT the environment prefix (the relay applies its `topicPrefix`). */
  topic: string;
  /** Kafka message key: the event subject (entity id). */
  key: string;
  /** Event type (also the Kafka header `event-type`). */
  type: string;
  /** The envelope serialized as JSON (a string: published as it is stored, byte for byte). */
  value: string;
  createdOn: Date;
  /** Failed publish attempts so far. */
  attempts: number;
  lastError?: string | null;
  lastAttemptOn?: Date | null;
}

/** Turn an event into the entry stored on the document. */
export function toOutboxEntry(event: AnyEvent): OutboxEntry {
  const family = familyOfType(event.type);
  if (!family) throw new Error(`unknown event type '${event.type}'`);
  return {
    id: event.id,
    topic: TOPICS[family],
    key: partitionKey(event),
    type: event.type,
    value: JSON.stringify(event),
    createdOn: new Date(event.time),
    attempts: 0,
  };
}

export type UpdateDoc = Record<string, any>;

/**
 * The update fragment that appends events to the document's outbox:
 * `{ $push: { outbox: entry } }` for one event, `{ $push: { outbox: { $each: [...] } } }` for several.
 */
export function outboxPush(...events: AnyEvent[]): UpdateDoc {
  if (events.length === 0) throw new Error('outboxPush needs at least one event');
  const entries = events.map(toOutboxEntry);
  return { $push: { [OUTBOX_FIELD]: entries.length === 1 ? entries[0] : { $each: entries } } };
}

/**
 * Merge outbox events into another update so the state change and its events commit together:
 *
 *   await Requisition.updateOne({ _id, status: 'DRAFT' }, withOutbox({ $set: { status: 'SUBMITTED' } }, event))
 *
 * Top-level non-operator keys (mongoose shorthand for $set) are moved into `$set`. The input is
 * not modified. An existing `$push.outbox` is kept (its entries come first).
 */
export function withOutbox(update: UpdateDoc, ...events: AnyEvent[]): UpdateDoc {
  if (Array.isArray(update)) throw new Error('withOutbox does not support aggregation-pipeline updates');
  const out: UpdateDoc = {};
  const implicitSet: UpdateDoc = {};
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith('$')) out[k] = { ...(v as UpdateDoc) };
    else implicitSet[k] = v;
  }
  if (Object.keys(implicitSet).length > 0) out.$set = { ...implicitSet, ...(out.$set ?? {}) };
  if (events.length === 0) return out;
  for (const op of ['$set', '$unset', '$inc', '$pull', '$pop', '$addToSet', '$setOnInsert', '$rename']) {
    if (out[op] && Object.prototype.hasOwnProperty.call(out[op], OUTBOX_FIELD)) {
      throw new Error(`withOutbox: the update already uses ${op} on '${OUTBOX_FIELD}'`);
    }
  }
  const entries = events.map(toOutboxEntry);
  const push: UpdateDoc = { ...(out.$push ?? {}) };
  const existing = push[OUTBOX_FIELD];
  if (existing === undefined) {
    push[OUTBOX_FIELD] = entries.length === 1 ? entries[0] : { $each: entries };
  } else {
    const before: unknown[] =
      existing && typeof existing === 'object' && '$each' in existing
        ? [...(existing as { $each: unknown[] }).$each]
        : [existing];
    push[OUTBOX_FIELD] = { $each: [...before, ...entries] };
  }
  out.$push = push;
  return out;
}

/** The `outbox` array for a new document: `Model.create({ ...fields, outbox: outboxForInsert(event) })`. */
export function outboxForInsert(...events: AnyEvent[]): OutboxEntry[] {
  return events.map(toOutboxEntry);
}

/**
 * Mongoose schema definition of one outbox entry, for services that declare `outbox` on their schemas:
 *   outbox: { type: [new Schema(outboxEntrySchemaDefinition, outboxEntrySchemaOptions)], default: [] }
 * (`_id: false` keeps mongoose from adding an _id to each entry.)
 * Declare it: with mongoose's default `strict` mode an undeclared `outbox` path is silently
 * dropped from updates and inserts, and the events would be lost.
 */
export const outboxEntrySchemaDefinition = {
  id: { type: String, required: true },
  topic: { type: String, required: true },
  key: { type: String, required: true },
  type: { type: String, required: true },
  value: { type: String, required: true },
  createdOn: { type: Date, required: true },
  attempts: { type: Number, default: 0 },
  lastError: { type: String, default: null },
  lastAttemptOn: { type: Date, default: null },
};
export const outboxEntrySchemaOptions = { _id: false } as const;

// ---------------------------------------------------------------------------
// Relay
// ---------------------------------------------------------------------------
