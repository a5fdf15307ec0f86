import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Sequences for human-readable numbers (testRequisitionId, testOrderId), collection `counters`.
 *
 * One document per number handed out, `_id` = `<sequence>:<n>`: a number is taken by INSERTING its document,
 * and the `_id` uniqueness makes that the one race-free step. (A single `$inc` on one document per sequence would
 * be as safe on MongoDB; these documents are kept because each records what its number was for, for audit, and
 * the existing numbers live in them.)
 */
export interface CounterDoc {
  _id: string;
  name: string;
  seq: number;
  /** what the number was allocated for (e.g. the requisition id), for audit */
  ref: string | null;
  createdOn: Date;
}

export const counterSchema = new Schema<CounterDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    seq: { type: Number, required: true },
    ref: { type: String, default: null },
    createdOn: { type: Date, default: () => new Date() },
  },
  { collection: 'counters', versionKey: false },
);
// nextSequence: the highest number of a sequence so far
counterSchema.index({ name: 1, seq: -1 });

export function counterModel(conn: Connection): Model<CounterDoc> {
  return (conn.models.Counter as Model<CounterDoc>) ?? conn.model<CounterDoc>('Counter', counterSchema);
}

/**
 * The next value of a sequence (1, 2, 3, ...): read the highest, insert highest + 1; when another caller
 * inserted it first (duplicate key), read again and retry. Gaps never happen; under contention each round has
 * exactly one winner.
 */
export async function nextSequence(
  conn: Connection,
  name: string,
  ref: string | null = null,
): Promise<number> {
  const Counter = counterModel(conn);
  for (let attempt = 1; attempt <= 200; attempt++) {
    const last = await Counter.findOne({ name }, { seq: 1 }).sort({ seq: -1 }).lean<{ seq: number }>().exec();
    const seq = (last?.seq ?? 0) + 1;
    try {
      await Counter.create({ _id: `${name}:${seq}`, name, seq, ref });
      return seq;
    } catch (err: any) {
      if (err?.code !== 11000) throw err;
    }
  }
  throw new Error(`could not allocate the next ${name} number (too much contention)`);
}
