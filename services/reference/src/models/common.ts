import type { Connection, Model, Schema } from 'mongoose';

/** The audit fields every reference record carries (see auditedSchema in @onco/platform). */
export interface Audited {
  _id: string;
  createdOn: Date;
  createdBy: string | null;
  updatedOn: Date;
  updatedBy: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
}

/** An embedded {id, name} reference to another record (no _id of its own). */
export const refSchema = { id: { type: String, required: true }, name: { type: String, default: null }, _id: false } as const;

/** One model per connection: reuse it when another module (or test) compiled it already. */
export function modelOn<T>(conn: Connection, name: string, schema: Schema): Model<T> {
  return (conn.models[name] as Model<T>) ?? conn.model<T>(name, schema);
}
