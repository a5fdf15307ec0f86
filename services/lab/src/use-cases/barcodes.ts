import { AppError, actorOf, badRequest, inTransaction, type SessionUser } from '@onco/platform';
import { BARCODE_MSG, formatBarcode } from '@onco/domain';
import type { BarcodeDoc } from '../models';
import { labelSheetHtml } from '../barcode-labels';
import type { LabDeps } from './deps';

/**
 * Container barcodes (spec 3 sections 7.4, 8 "Barcode", 9.1; docs/decisions.md "Barcodes"): issue unique codes,
 * and print their labels as a PDF.
 */

/** HTML to PDF: the process's chromium renderer (the one the TRF and blank-form PDFs use), wired by the server. */
export interface PdfRender {
  render(html: string): Promise<Buffer>;
}

/** The print use case also renders: LabDeps and the renderer (null in a module made without one). */
export interface BarcodeDeps extends LabDeps {
  pdf: PdfRender | null;
}

export interface IssueBarcodesInput {
  /** who asks (a name, a bench), as the request says */
  requestor: string;
  count: number;
  /** already checked and upper case (the route's schema) */
  prefix: string;
}

const DUPLICATE_KEY = 11000;

/** The indexes of the documents an unordered insertMany refused as duplicates; anything else is thrown. */
function duplicateIndexes(err: unknown): Set<number> {
  const e = err as { code?: number; writeErrors?: Array<{ index: number; code: number }> };
  const writeErrors = e?.writeErrors ?? [];
  if (!writeErrors.length || writeErrors.some((w) => w.code !== DUPLICATE_KEY)) throw err;
  return new Set(writeErrors.map((w) => w.index));
}

/** Make the prefix's counter document if it is missing (an idempotent upsert; a racing creator's duplicate is fine). */
async function ensureCounter(deps: LabDeps, prefix: string) {
  await deps.models.BarcodeCounter.updateOne({ _id: prefix }, { $setOnInsert: { seq: 0 } }, { upsert: true })
    .exec()
    .catch((err: unknown) => {
      if ((err as { code?: unknown })?.code !== DUPLICATE_KEY) throw err;
    });
}

/**
 * Hand out `count` new codes of `prefix`. The numbers come from one `$inc` of the prefix's counter (created first
 * by a separate upsert: the store's advice, docs/decisions.md "The store"), so concurrent requests get disjoint
 * ranges; each code is then inserted into `barcodes`, whose unique `_id` is the last word: a code that exists
 * already (another prefix's code can read the same once a sequence outgrows its digits, e.g. P1 + 00000001 and
 * P + 100000001) is skipped and another number taken. Returns the new codes in order.
 */
export async function issueBarcodes(
  deps: LabDeps,
  user: SessionUser,
  input: IssueBarcodesInput,
  now: Date = new Date(),
): Promise<BarcodeDoc[]> {
  const { prefix, count } = input;
  await ensureCounter(deps, prefix);
  const issued: BarcodeDoc[] = [];
  for (let round = 0; issued.length < count; round++) {
    if (round >= 10) throw new Error(`could not issue ${count} barcodes of ${prefix}: every number taken`);
    const want = count - issued.length;
    const counter = await deps.models.BarcodeCounter.findOneAndUpdate(
      { _id: prefix },
      { $inc: { seq: want } },
      { returnDocument: 'after' },
    )
      .lean()
      .exec();
    if (!counter) throw new Error(`barcode counter ${prefix} vanished`);
    const docs: BarcodeDoc[] = Array.from({ length: want }, (_, i) => {
      const sequence = counter.seq - want + 1 + i;
      const barcode = formatBarcode(prefix, sequence);
      return {
        _id: barcode,
        barcode,
        prefix,
        sequence,
        requestor: input.requestor,
        createdBy: actorOf(user),
        createdOn: now,
        printedOn: null,
        printedBy: null,
        printCount: 0,
        lastPrintedOn: null,
      };
    });
    let refused = new Set<number>();
    try {
      await deps.models.Barcode.insertMany(docs, { ordered: false });
    } catch (err) {
      refused = duplicateIndexes(err);
    }
    issued.push(...docs.filter((_, i) => !refused.has(i)));
  }
  return issued;
}

export interface PrintBarcodesInput {
  /** the codes to print, one label each (upper case; repeats are printed once) */
  barcodes: string[];
  /** print codes whose labels were printed before (a damaged label); otherwise they are refused */
  reprint: boolean;
}

/** 409: the label of these codes was printed before, so their containers exist (the spec's message). */
const containerExists = (codes: string[]) =>
  new AppError(409, 'CONTAINER_EXISTS', BARCODE_MSG.containerExists(codes.join(', ')), { barcodes: codes });

/**
 * The label sheets of issued codes as a PDF. Every code must have been issued here (else 400 naming the others).
 * A code's first print creates its container, so printing a code again is refused (409 'Container already
 * created for barcode …') unless `reprint` says so. The PDF is rendered first and the first prints recorded
 * after, all or none in one transaction: of two prints of the same new code at once, one gets the PDF and the
 * other the 409.
 */
export async function printBarcodes(
  deps: BarcodeDeps,
  user: SessionUser,
  input: PrintBarcodesInput,
  now: Date = new Date(),
): Promise<{ pdf: Buffer; barcodes: string[] }> {
  const codes = [...new Set(input.barcodes)];
  const found = await deps.models.Barcode.find({ _id: { $in: codes } }, { printedOn: 1 })
    .lean()
    .exec();
  const known = new Map(found.map((b) => [b._id, b]));
  const unknown = codes.filter((c) => !known.has(c));
  if (unknown.length) throw badRequest(BARCODE_MSG.notIssued(unknown), { barcodes: unknown });
  const printed = codes.filter((c) => known.get(c)?.printedOn);
  if (printed.length && !input.reprint) throw containerExists(printed);
  if (!deps.pdf) throw new AppError(503, 'UNAVAILABLE', 'Printing is not available in this process.');

  const pdf = await deps.pdf.render(labelSheetHtml(codes));

  const { Barcode } = deps.models;
  const first = { printedOn: now, printedBy: actorOf(user) };
  if (input.reprint) {
    await Barcode.updateMany({ _id: { $in: codes }, printedOn: null }, { $set: first }).exec();
  } else {
    // another print that took some of these codes meanwhile wins: this one records nothing (a write conflict
    // between the two transactions runs this one again, and it then reads the other's prints)
    await inTransaction(Barcode.db, async (session) => {
      const taken = await Barcode.find({ _id: { $in: codes }, printedOn: { $ne: null } }, { _id: 1 })
        .session(session)
        .lean()
        .exec();
      if (taken.length) throw containerExists(codes.filter((c) => taken.some((t) => t._id === c)));
      const res = await Barcode.updateMany(
        { _id: { $in: codes }, printedOn: null },
        { $set: first },
        { session },
      ).exec();
      if (res.modifiedCount !== codes.length) throw containerExists(codes);
    });
  }
  await Barcode.updateMany(
    { _id: { $in: codes } },
    { $set: { lastPrintedOn: now }, $inc: { printCount: 1 } },
  ).exec();
  return { pdf, barcodes: codes };
}
