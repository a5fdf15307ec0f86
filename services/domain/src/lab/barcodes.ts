/**
 * Container barcodes (spec 3 sections 7.4, 8 "Barcode", 9.1): GET /oms/api/v1/barcodes hands out codes, POST
 * /oms/api/v1/barcodes/print renders their labels. One copy of the limits and texts for the lab service (which
 * enforces them) and the console's Print barcodes dialog (which shows them). docs/decisions.md "Barcodes".
 */

/** The spec's defaults (section 9.1): prefix PS, one code. */
export const BARCODE_DEFAULT_PREFIX = 'PS';
export const BARCODE_DEFAULT_COUNT = 1;
/** at most this many codes a request, and labels a print (ours: four label sheets) */
export const BARCODE_MAX_COUNT = 100;
/** a prefix is 1 to 6 letters and digits, starting with a letter; lower case is taken as upper case */
export const BARCODE_PREFIX_MAX = 6;
export const BARCODE_PREFIX_PATTERN = /^[A-Z][A-Z0-9]{0,5}$/;
/** the sequence number's digits (zero-padded; a number beyond them is written in full) */
export const BARCODE_DIGITS = 8;
/** the requestor's text (who asks: a name, a bench, a workstation) */
export const BARCODE_REQUESTOR_MAX = 100;

/** The code of a prefix's `sequence`-th number: `PS` and 1 give `PS00000001`. */
export function formatBarcode(prefix: string, sequence: number): string {
  return `${prefix}${String(sequence).padStart(BARCODE_DIGITS, '0')}`;
}

/** The prefix as the server takes it (trimmed, upper case), or null when it is not a valid prefix. */
export function normalizeBarcodePrefix(prefix: string): string | null {
  const p = prefix.trim().toUpperCase();
  return BARCODE_PREFIX_PATTERN.test(p) ? p : null;
}

export const BARCODE_MSG = {
  /** the spec's texts (section 8) */
  printed: 'Barcode printed successfully.',
  printFailed: 'Error printing barcode!',
  containerExists: (barcode: string) => `Container already created for barcode ${barcode}.`,
  /** ours */
  requestorRequired: `Say who asks for the barcodes (1 to ${BARCODE_REQUESTOR_MAX} characters).`,
  count: `A whole number from 1 to ${BARCODE_MAX_COUNT}.`,
  prefix: `1 to ${BARCODE_PREFIX_MAX} letters and digits, starting with a letter.`,
  printCount: `Print 1 to ${BARCODE_MAX_COUNT} barcodes at a time.`,
  notIssued: (barcodes: string[]) =>
    `Not a barcode issued by this system: ${barcodes.join(', ')}. Only issued barcodes can be printed.`,
};
