import { Schema } from 'mongoose';
import { outboxEntrySchemaDefinition, outboxEntrySchemaOptions } from '@onco/events';

/**
 * Small embedded shapes shared by the requisition documents. Every sub-schema has `_id: false`: the
 * embedded objects carry the referenced record's `id`, never a mongoose-generated one.
 */
export const sub = (def: Record<string, unknown>) => new Schema(def, { _id: false, minimize: false });

/** {id, name}: a reference with the name shown in lists (denormalized at write time). */
export const idName = () =>
  sub({ id: { type: String, default: null }, name: { type: String, default: null } });

/**
 * Pending events committed with the document's own change (the outbox, events/src/outbox.ts):
 * {id, topic, key, type, value (the envelope as JSON text), createdOn, attempts, lastError, lastAttemptOn}.
 * The relay `$pull`s entries once Kafka has them. No index: see the note in events/src/outbox.ts.
 */
export const outboxField = () => ({
  type: [new Schema(outboxEntrySchemaDefinition, { ...outboxEntrySchemaOptions, minimize: false })],
  default: [],
});

/** Calendar dates without a time zone (date of birth, collection date, ...) are kept as 'YYYY-MM-DD' text. */
export const calendarDate = { type: String, default: null, match: /^\d{4}-\d{2}-\d{2}$/ } as const;

export const str = { type: String, default: null } as const;
export const bool = { type: Boolean, default: null } as const;
