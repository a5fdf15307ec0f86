import { randomUUID } from 'node:crypto';
import { Schema, type SchemaDefinition, type SchemaOptions } from 'mongoose';

/** Every record's id is a string (_id), shown to clients as `id`. */
export const newId = (): string => randomUUID();

/**
 * Common audit fields (spec 1 section 3): createdOn, createdBy, updatedOn, updatedBy, version, archived, deleted.
 * `version` is our optimistic-concurrency counter: updates match on it and bump it (a stale version is a 409).
 * `outbox` holds events committed with the change and not yet on Kafka (see events/ and docs/events.md).
 */
export const auditFields = {
  _id: { type: String, default: newId },
  createdOn: { type: Date, default: () => new Date() },
  createdBy: { type: String, default: null },
  updatedOn: { type: Date, default: () => new Date() },
  updatedBy: { type: String, default: null },
  version: { type: Number, default: 0 },
  archived: { type: Boolean, default: false },
  deleted: { type: Boolean, default: false },
} as const;

export function auditedSchema(def: SchemaDefinition, opts: SchemaOptions = {}): Schema {
  return new Schema({ ...auditFields, ...def }, {
    versionKey: false,
    minimize: false,
    strict: true,
    ...opts,
  } as SchemaOptions);
}

/** Turn a lean document into the API shape: `id` instead of `_id`, no internal fields. */
export function toApi<T extends Record<string, any>>(doc: T | null | undefined): any {
  if (!doc) return doc;
  const { _id, outbox: _outbox, ...rest } = doc as any;
  return { id: _id, ...rest };
}
