import { Schema, type Connection, type Model, type SchemaDefinition, type SchemaOptions } from 'mongoose';
import type { RecordFields } from '@onco/domain';

/** The audit fields every reference record carries (see auditedSchema in @onco/platform). */
export interface Audited extends RecordFields<Date> {
  _id: string;
}

/**
 * A sub-document schema without mongoose's type inference (inference over nested definitions is very costly
 * for the type checker); the TypeScript shape is declared on the record's interface instead.
 */
export function subSchema(def: SchemaDefinition, opts: SchemaOptions = {}): Schema {
  return new Schema(def, { _id: false, ...opts });
}

/** An embedded {id, name} reference to another record (no _id of its own). */
export const refSchema: Schema = subSchema({
  id: { type: String, required: true },
  name: { type: String, default: null },
});

/**
 * One model per connection: reuse it when another module (or test) compiled it already.
 * (conn.model<T>() with a type parameter T sends the type checker into mongoose's conditional types until it
 * runs out of memory; the cast keeps it cheap.)
 */
export function modelOn<T>(conn: Connection, name: string, schema: Schema): Model<T> {
  return (conn.models[name] as Model<T> | undefined) ?? (conn.model(name, schema) as unknown as Model<T>);
}
