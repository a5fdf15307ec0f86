import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Model } from 'mongoose';
import type { Icd10CodeDoc } from '../models/codes';
import { icd10Id } from '../ids';
import {
  chooseMode,
  existingByKey,
  ImportFormatError,
  KeyedWriter,
  stampRevision,
  type ImportOptions,
  type ImportResult,
} from './common';

export const ICD10_DATA_SET = 'icd10';

/**
 * ICD-10-CM importer. Two layouts of the official release are read:
 *  - the TSV of ../shared/data: header `code\tformattedCode\tdescription`, then one code a line;
 *  - the raw CMS codes file (icd10cm-codes-YYYY.txt): the code left-justified in 8 columns, then the
 *    long description. The dotted formattedCode is derived (a dot after the 3rd character).
 * The file is read line by line (the full release is ~7 MB, 74,719 codes) and written in batches.
 */
export interface Icd10Row {
  code: string;
  formattedCode: string;
  description: string;
}

export type Icd10Format = 'tsv' | 'cms';

export const ICD10_TSV_HEADER = ['code', 'formattedCode', 'description'] as const;
const CODE_RE = /^[A-Z][0-9A-Z]{2,6}$/;

/** C50911 -> C50.911; 3-character codes (C61, Z08) unchanged; an already dotted code is normalised. */
export function formatIcd10Code(code: string): string {
  const c = code.replace('.', '').trim().toUpperCase();
  return c.length > 3 ? `${c.slice(0, 3)}.${c.slice(3)}` : c;
}

/** The format of a file from its first line. */
export function detectIcd10Format(firstLine: string): Icd10Format {
  const cols = firstLine
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\t');
  if (cols.length === 3 && cols.every((c, i) => c.trim() === ICD10_TSV_HEADER[i])) return 'tsv';
  if (/^[A-Z][0-9A-Z]{2,6}\s+\S/.test(firstLine.replace(/^\uFEFF/, ''))) return 'cms';
  throw new ImportFormatError(
    'not an ICD-10-CM file: expected the header code\\tformattedCode\\tdescription or CODE<pad to 8>Description',
    1,
  );
}

/** One line in the given format; null for a blank line or the TSV header. Throws ImportFormatError on a bad row. */
export function parseIcd10Line(raw: string, format: Icd10Format, lineNo = 0): Icd10Row | null {
  const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
  if (line.trim() === '') return null;
  let code: string;
  let formattedCode: string;
  let description: string;
  if (format === 'tsv') {
    const cols = line.split('\t');
    if (cols[0] === 'code' && cols[1] === 'formattedCode') return null;
    if (cols.length !== 3)
      throw new ImportFormatError(`expected 3 tab-separated columns, found ${cols.length}`, lineNo);
    code = cols[0].trim();
    formattedCode = cols[1].trim();
    description = cols[2].trim();
    if (formattedCode !== formatIcd10Code(code)) {
      throw new ImportFormatError(`formattedCode ${formattedCode} does not match code ${code}`, lineNo);
    }
  } else {
    // CMS layout: the first 8 characters hold the code; a longer line without the padding is split at the
    // first run of whitespace (the two parses agree on the official file).
    const m = /^(\S{3,7})\s+(.*)$/.exec(line);
    if (!m) throw new ImportFormatError('expected CODE<pad to 8>Description', lineNo);
    code = m[1];
    description = m[2].trim();
    formattedCode = formatIcd10Code(code);
  }
  if (!CODE_RE.test(code))
    throw new ImportFormatError(`invalid ICD-10-CM code: ${JSON.stringify(code)}`, lineNo);
  if (!description) throw new ImportFormatError(`empty description for ${code}`, lineNo);
  return { code, formattedCode, description };
}

/** Parse a whole text (small inputs, tests). */
export function parseIcd10Text(text: string): Icd10Row[] {
  const lines = text.split('\n');
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined) return [];
  const format = detectIcd10Format(first);
  const rows: Icd10Row[] = [];
  lines.forEach((l, i) => {
    const r = parseIcd10Line(l, format, i + 1);
    if (r) rows.push(r);
  });
  return rows;
}

/** Stream the rows of a file (path) or a readable stream, line by line, detecting the format from the first line. */
export async function* readIcd10(input: string | Readable): AsyncGenerator<Icd10Row> {
  const stream = typeof input === 'string' ? createReadStream(input, { encoding: 'utf8' }) : input;
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  let format: Icd10Format | undefined;
  let lineNo = 0;
  const seen = new Set<string>();
  try {
    for await (const line of rl) {
      lineNo += 1;
      if (format === undefined) {
        if (line.trim() === '') continue;
        format = detectIcd10Format(line);
      }
      const row = parseIcd10Line(line, format, lineNo);
      if (!row) continue;
      if (seen.has(row.code)) throw new ImportFormatError(`duplicate code ${row.code}`, lineNo);
      seen.add(row.code);
      yield row;
    }
  } finally {
    rl.close();
    if (typeof input === 'string') stream.destroy();
  }
}

/**
 * Import ICD-10-CM codes into the icd10_codes collection. Insert mode (an empty collection: the first load of a
 * release) streams the file into insertMany batches. Upsert mode (a populated collection: a newer release)
 * reads the stored codes once, inserts the new ones in batches, updates the changed ones by _id and leaves the
 * rest alone (see KeyedWriter for why not a bulk upsert). Codes a newer release drops are kept: requisitions
 * may still cite them.
 */
export async function importIcd10(
  model: Model<Icd10CodeDoc>,
  input: string | Readable | Iterable<Icd10Row> | AsyncIterable<Icd10Row>,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const started = Date.now();
  await model.init(); // the collection and its unique index exist before the first write
  const collection = model.collection;
  const mode = await chooseMode(collection, opts.mode);
  const fields = ['code', 'formattedCode', 'description'] as const;
  const result: ImportResult = { read: 0, inserted: 0, updated: 0, unchanged: 0, mode, ms: 0 };
  const writer = new KeyedWriter<Icd10Row & Record<string, unknown>>(collection, {
    mode,
    batchSize: opts.batchSize ?? 1000,
    by: opts.by ?? 'import',
    idOf: (r) => icd10Id(r.code),
    keyOf: (r) => r.code,
    existing: mode === 'upsert' ? await existingByKey(collection, 'code', [...fields]) : new Map(),
    fields: [...fields],
    result,
    onBatch: () =>
      opts.onProgress?.({
        read: result.read,
        written: result.inserted + result.updated + result.unchanged,
        batches: writer.batches,
      }),
  });
  const rows = typeof input === 'string' || isReadable(input) ? readIcd10(input as string | Readable) : input;
  const batchSize = opts.batchSize ?? 1000;
  for await (const row of rows as AsyncIterable<Icd10Row>) {
    result.read += 1;
    await writer.write({ code: row.code, formattedCode: row.formattedCode, description: row.description });
    if (mode === 'upsert' && result.read % batchSize === 0) {
      opts.onProgress?.({
        read: result.read,
        written: result.inserted + result.updated + result.unchanged,
        batches: writer.batches,
      });
    }
  }
  await writer.flush();
  if (result.inserted + result.updated > 0) await stampRevision(model, ICD10_DATA_SET, result.read);
  result.ms = Date.now() - started;
  return result;
}

function isReadable(x: unknown): x is Readable {
  return !!x && typeof (x as Readable).pipe === 'function' && typeof (x as Readable).on === 'function';
}
