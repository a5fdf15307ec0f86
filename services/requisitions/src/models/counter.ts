import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Sequences for human-readable numbers (testRequisitionId and later others). One document per sequence,
 * `_id` is the sequence name; `$inc` with upsert is a single-document atomic update, so two callers never
 * get the same value (no transaction needed). Looked up only by _id: no extra index.
 */
export interface CounterDoc {
  _id: string;
  seq: number;
  updatedOn: Date;
}

export const counterSchema = new Schema<CounterDoc>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, default: 0 },
    updatedOn: { type: Date, default: () => new Date() },
  },
  { collection: 'counters', versionKey: false },
);

export function counterModel(conn: Connection): Model<CounterDoc> {
  return (conn.models.Counter as Model<CounterDoc>) ?? conn.model<CounterDoc>('Counter', counterSchema);
}

/** The next value of a sequence (1, 2, 3, ...). */
export async function nextSequence(conn: Connection, name: string): Promise<number> {
  const doc = await counterModel(conn)
    .findOneAndUpdate({ _id: name }, { $inc: { seq: 1 }, $set: { updatedOn: new Date() } }, { upsert: true, new: true })
    .lean()
    .exec();
  return doc!.seq;
}
