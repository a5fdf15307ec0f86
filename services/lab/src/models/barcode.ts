import { Schema, type Connection, type Model } from 'mongoose';
import type { BarcodeFields } from '@onco/domain';
import { idName } from './common';

/**
 * Container barcodes (spec 3 sections 7.4 and 8 "Barcode"; docs/decisions.md "Barcodes").
 *
 * `barcode_counters`: one document a prefix (`_id` the prefix), `seq` the last number handed out. A request for N
 * codes takes N numbers with one `$inc` of that document (use-cases/barcodes.ts), so concurrent requests get
 * disjoint ranges.
 *
 * `barcodes`: every code ever issued, `_id` the code itself: the unique `_id` index is what guarantees a code is
 * issued once. It records who asked (`requestor` as sent, `createdBy` the signed-in user), when and under which
 * prefix, and its first print: the label went on a container, so a second print is refused unless it says it
 * is a reprint (a damaged label).
 */
export interface BarcodeCounterDoc {
  _id: string;
  seq: number;
}

export interface BarcodeDoc extends BarcodeFields<Date> {
  _id: string;
  /** the first print of its label: the container it identifies exists from then on */
  printedOn: Date | null;
  printedBy: { id: string | null; name: string | null } | null;
  /** labels printed in all (reprints included) */
  printCount: number;
  lastPrintedOn: Date | null;
}

export const barcodeCounterSchema = new Schema<BarcodeCounterDoc>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true, default: 0 },
  },
  { collection: 'barcode_counters', versionKey: false },
);

export const barcodeSchema = new Schema<BarcodeDoc>(
  {
    _id: { type: String, required: true },
    barcode: { type: String, required: true },
    prefix: { type: String, required: true },
    sequence: { type: Number, required: true },
    requestor: { type: String, required: true },
    createdBy: { type: idName(), required: true },
    createdOn: { type: Date, required: true },
    printedOn: { type: Date, default: null },
    printedBy: { type: idName(), default: null },
    printCount: { type: Number, default: 0 },
    lastPrintedOn: { type: Date, default: null },
  },
  { collection: 'barcodes', versionKey: false, minimize: false },
);

// no query of its own: a guard that one number of a prefix is issued once (lookups are by _id, the code)
barcodeSchema.index({ prefix: 1, sequence: 1 }, { unique: true });

export function barcodeCounterModel(conn: Connection): Model<BarcodeCounterDoc> {
  return (
    (conn.models.BarcodeCounter as Model<BarcodeCounterDoc>) ??
    conn.model<BarcodeCounterDoc>('BarcodeCounter', barcodeCounterSchema)
  );
}

export function barcodeModel(conn: Connection): Model<BarcodeDoc> {
  return (conn.models.Barcode as Model<BarcodeDoc>) ?? conn.model<BarcodeDoc>('Barcode', barcodeSchema);
}
