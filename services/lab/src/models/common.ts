import { Schema } from 'mongoose';
import { outboxEntrySchemaDefinition, outboxEntrySchemaOptions } from '@onco/events';

/** Embedded shapes of the lab's documents; `_id: false` so they carry the referenced record's `id` only. */
export const sub = (def: Record<string, unknown>) => new Schema(def, { _id: false, minimize: false });
export const str = { type: String, default: null } as const;
export const idName = () => sub({ id: str, name: str });

/** Pending events committed with the document's change (events/src/outbox.ts); no index, see the note there. */
export const outboxField = () => ({
  type: [new Schema(outboxEntrySchemaDefinition, { ...outboxEntrySchemaOptions, minimize: false })],
  default: [],
});
