import type { IdNameRef, WireDate } from './record';

/**
 * A container barcode the lab issued (services/lab/src/models/barcode.ts, dates `Date`) and the reply of GET
 * /oms/api/v1/barcodes (`BarcodeRow`, dates ISO text): rules and texts in ../lab/barcodes.ts.
 */
export interface BarcodeFields<D> {
  /** the code itself: the prefix and its zero-padded sequence number (PS00000001) */
  barcode: string;
  prefix: string;
  sequence: number;
  /** who asked, as the request said (the `requestor` query parameter) */
  requestor: string;
  /** the signed-in user who asked */
  createdBy: IdNameRef;
  createdOn: D;
}
export type BarcodeRow = BarcodeFields<WireDate>;

/** GET barcodes: the codes handed out, in order, in the spec's list shape. */
export interface BarcodesReply {
  content: BarcodeRow[];
  totalElements: number;
}
