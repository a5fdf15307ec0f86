import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MANIFEST_LIMITS, MANIFEST_MSG } from '@onco/domain';

/**
 * Reading a manifest file (docs/manifests.md "Formats", "Bad input"): .xlsx, .xls and .csv, all with one parser,
 * SheetJS (`@e965/xlsx`, the registry build of SheetJS 0.20 with the fixes the old `xlsx` 0.18 lacks; it also
 * writes the template and the error files in the same formats).
 *
 * Defence in depth, cheapest first, so a malicious or broken file ends as an ERROR with a reason and never takes
 * the process down:
 *  1. `sniffManifest`: the bytes must be what the name says (a zip for .xlsx, an OLE2 compound file for .xls,
 *     UTF-8 text for .csv); a password-protected workbook, a PDF, an image, UTF-16 or Windows-1252 text are named
 *     as such. For a zip the central directory is read (no inflating) and the unpacked size summed: past
 *     MANIFEST_LIMITS.maxUnpackedBytes it is refused as a zip bomb.
 *  2. The parse runs in a worker thread with a heap limit (PARSE_HEAP_MB) and a time limit (PARSE_TIMEOUT_MS):
 *     an out-of-memory or a runaway parse kills that thread only. It reads at most maxRows + 2 rows
 *     (`sheetRows`) and refuses a sheet wider than maxColumns before converting a cell.
 *  3. Formula cells are reported (never evaluated): a manifest holds values.
 */
export type ManifestFormat = 'xlsx' | 'xls' | 'csv';

export const PARSE_HEAP_MB = 1536;
export const PARSE_TIMEOUT_MS = 120_000;

export const formatOfName = (name: string): ManifestFormat | null => {
  const l = name.toLowerCase();
  return l.endsWith('.xlsx') ? 'xlsx' : l.endsWith('.xls') ? 'xls' : l.endsWith('.csv') ? 'csv' : null;
};

export class ManifestFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestFileError';
  }
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENCRYPTED = Buffer.from('EncryptedPackage', 'utf16le');

/** What the bytes are, by their magic number. */
export function contentKind(buf: Buffer): 'zip' | 'cfb' | 'pdf' | 'image' | 'utf16' | 'binary' | 'text' {
  if (buf.subarray(0, 4).equals(ZIP) || buf.subarray(0, 4).equals(EMPTY_ZIP)) return 'zip';
  if (buf.subarray(0, 8).equals(CFB)) return 'cfb';
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const head = buf.subarray(0, 4).toString('hex');
  if (head.startsWith('89504e47') || head.startsWith('ffd8ff') || head.startsWith('47494638')) return 'image';
  if (head.startsWith('fffe') || head.startsWith('feff')) return 'utf16';
  if (buf.subarray(0, Math.min(buf.length, 64 * 1024)).includes(0)) return 'binary';
  return 'text';
}

/** The sum of the uncompressed sizes in a zip's central directory (no inflating); Infinity when unreadable. */
export function zipUnpackedSize(buf: Buffer): number {
  const from = Math.max(0, buf.length - 65_557);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--)
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return Infinity;
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (entries === 0xffff || p === 0xffffffff) return Infinity; // zip64: far past any manifest
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return Infinity;
    const size = buf.readUInt32LE(p + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return total;
}

const what = {
  pdf: 'a PDF document',
  image: 'an image',
  binary: 'not a spreadsheet',
  zip: 'an .xlsx workbook',
  cfb: 'an .xls workbook',
} as const;

/** Check that the bytes are what the name says (step 1 above); throws ManifestFileError with the reason. */
export function sniffManifest(buf: Buffer, format: ManifestFormat): void {
  if (buf.length === 0) throw new ManifestFileError(MANIFEST_MSG.empty);
  const kind = contentKind(buf);
  if (kind === 'cfb' && buf.includes(ENCRYPTED)) throw new ManifestFileError(MANIFEST_MSG.encrypted);
  if (format === 'csv') {
    if (kind === 'utf16') throw new ManifestFileError(MANIFEST_MSG.utf16);
    if (kind !== 'text') throw new ManifestFileError(MANIFEST_MSG.csvNotText(what[kind]));
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      throw new ManifestFileError(MANIFEST_MSG.notUtf8);
    }
    // the delimiter is the comma (RFC 4180); SheetJS would guess another one, we name it instead
    const first = buf
      .subarray(0, Math.min(buf.length, 64 * 1024))
      .toString('utf8')
      .split(/\r?\n/)[0];
    const other = !first.includes(',') ? [';', '\t', '|'].find((d) => first.includes(d)) : undefined;
    if (other) throw new ManifestFileError(MANIFEST_MSG.delimiter(other === '\t' ? 'tabs' : `"${other}"`));
    return;
  }
  const expected = format === 'xlsx' ? 'zip' : 'cfb';
  if (kind !== expected) {
    const actual = kind === 'text' || kind === 'utf16' ? 'plain text' : what[kind];
    throw new ManifestFileError(MANIFEST_MSG.wrongKind(format, actual));
  }
  if (kind === 'zip' && zipUnpackedSize(buf) > MANIFEST_LIMITS.maxUnpackedBytes)
    throw new ManifestFileError(MANIFEST_MSG.unpacksTooLarge(MANIFEST_LIMITS.maxUnpackedBytes / 1024 / 1024));
}

export interface SheetLimits {
  maxRows: number;
  maxColumns: number;
}

export type ExtractResult =
  | { ok: true; rows: string[][]; formulas: [number, number][]; truncated: boolean }
  | { ok: false; message: string };

/**
 * Read the first sheet into rows of text cells. Self-contained (no imports, no closures): it runs in the
 * parse thread from its source text, and in this thread for the unit tests and the benchmark.
 * Dates become 'YYYY-MM-DD', numbers their plain text, booleans TRUE/FALSE. `truncated`: more rows than
 * maxRows + 1 (the header) were in the sheet.
 */
export function extractSheet(
  XLSX: any,
  buf: Uint8Array,
  format: 'xlsx' | 'xls' | 'csv',
  limits: { maxRows: number; maxColumns: number },
): ExtractResult {
  let wb: any;
  try {
    const common = { dense: true, sheetRows: limits.maxRows + 2, cellHTML: false, cellStyles: false };
    wb =
      format === 'csv'
        ? XLSX.read(new TextDecoder('utf-8').decode(buf), { ...common, type: 'string', raw: true })
        : XLSX.read(buf, {
            ...common,
            type: 'buffer',
            cellDates: true,
            cellFormula: true,
            cellNF: false,
            bookVBA: false,
          });
  } catch (err) {
    const m = String((err as Error)?.message ?? err);
    if (/password|encrypt/i.test(m))
      // MANIFEST_MSG.encrypted and .unreadable, spelled out: this function runs in the parse thread from its
      // source text, without the module's imports (parse.test.ts checks the texts are the same)
      return {
        ok: false,
        message: 'The workbook is password-protected (encrypted): remove the password and upload it again.',
      };
    return { ok: false, message: `The file could not be read as .${format}: ${m.slice(0, 200)}` };
  }
  const name = wb.SheetNames?.[0];
  const ws = name ? wb.Sheets[name] : null;
  if (!ws || !ws['!ref']) return { ok: true, rows: [], formulas: [], truncated: false };
  const range = XLSX.utils.decode_range(ws['!ref']);
  const full = ws['!fullref'] ? XLSX.utils.decode_range(ws['!fullref']) : range;
  const width = range.e.c + 1;
  if (width > limits.maxColumns)
    return {
      ok: false,
      // MANIFEST_MSG.sheetTooWide, spelled out (see above)
      message: `Too many columns: the sheet has ${width}; a manifest may have at most ${limits.maxColumns}.`,
    };
  const data: any[][] = ws['!data'] ?? [];
  const rows: string[][] = [];
  const formulas: [number, number][] = [];
  const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
  const last = Math.min(range.e.r, limits.maxRows + 1);
  for (let r = 0; r <= last; r++) {
    const src = data[r];
    const out: string[] = new Array(width);
    for (let c = 0; c < width; c++) {
      const cell = src ? src[c] : undefined;
      if (!cell) {
        out[c] = '';
        continue;
      }
      if (cell.f) formulas.push([r, c]);
      const v = cell.v;
      if (v == null) out[c] = cell.w ?? '';
      else if (cell.t === 'd' || v instanceof Date) {
        const d = v as Date;
        out[c] = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
      } else if (cell.t === 'b') out[c] = v ? 'TRUE' : 'FALSE';
      else if (cell.t === 'e') out[c] = cell.w ?? '#ERROR';
      else out[c] = typeof v === 'string' ? v : String(v);
    }
    rows.push(out);
  }
  return {
    ok: true,
    rows,
    formulas,
    truncated: full.e.r > limits.maxRows + 1 || range.e.r > limits.maxRows + 1,
  };
}

/** The rows packed for the hand-off from the parse thread (packRows). */
export interface PackedRows {
  /** every cell's text, one after the other, no separators */
  text: string;
  /** each cell's length (UTF-16 units), row by row: `width` a row */
  lengths: Uint32Array;
  width: number;
}

/**
 * The rows as ONE string and the cells' lengths, for the hand-off from the parse thread. Posting one string
 * copies it once, and the lengths' buffer is moved (transferred), not copied; posting 100,000 arrays of 20
 * strings structured-clones two million objects (~0.2-0.8 s for 100,000 rows here, measured). The lengths,
 * not separator characters, mark the cells, so any text survives (a cell may hold any character), and neither
 * side scans the text for separators (2026-11-26: ~30% less time than joining with U+0001/U+0000 and splitting).
 * Null when there are no rows or they differ in width: the rows are posted as they are.
 * Self-contained like extractSheet (it runs in the thread from its source text).
 */
export function packRows(rows: string[][]): PackedRows | null {
  if (rows.length === 0) return null;
  const width = rows[0].length;
  if (width === 0) return null;
  const lengths = new Uint32Array(rows.length * width);
  const lines: string[] = new Array(rows.length);
  let k = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row.length !== width) return null;
    for (let c = 0; c < width; c++) lengths[k++] = row[c].length;
    lines[r] = row.join('');
  }
  return { text: lines.join(''), lengths, width };
}

/** The rows of packRows' answer. */
export function unpackRows(packed: PackedRows): string[][] {
  const { text, lengths, width } = packed;
  const count = lengths.length / width;
  const rows: string[][] = new Array(count);
  let at = 0;
  let k = 0;
  for (let r = 0; r < count; r++) {
    const row: string[] = new Array(width);
    for (let c = 0; c < width; c++) {
      const n = lengths[k++];
      row[c] = n === 0 ? '' : text.slice(at, at + n);
      at += n;
    }
    rows[r] = row;
  }
  if (at !== text.length) throw new Error('the packed rows do not match their lengths');
  return rows;
}

const requireHere = createRequire(import.meta.url);
let xlsxPath: string | null = null;
const resolveXlsx = () => (xlsxPath ??= requireHere.resolve('@e965/xlsx'));

// tsx/esbuild may wrap named functions with __name(); the thread defines it as the identity. The thread parses
// every file posted to it, one at a time.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (f) => f;
const XLSX = require(workerData.xlsxPath);
const extractSheet = ${extractSheet.toString()};
const packRows = ${packRows.toString()};
parentPort.on('message', (job) => {
  const r = extractSheet(XLSX, job.buf, job.format, job.limits);
  const packed = r.ok ? packRows(r.rows) : null;
  if (packed === null) parentPort.postMessage(r);
  else parentPort.postMessage({ ...r, rows: null, packed }, [packed.lengths.buffer]);
});
`;

export interface ParseOptions {
  limits?: SheetLimits;
  heapMb?: number;
  timeoutMs?: number;
}

/** How long the kept parse thread waits for the next file before it ends (its heap is given back then). */
export const PARSE_THREAD_IDLE_MS = 30_000;

/**
 * The parse thread kept between files (default heap limit only): a fresh thread costs ~0.1-0.25 s to start and
 * load SheetJS here, and parses its first file with cold (unoptimised) code, up to 2x slower than a warm one
 * (measured, docs/manifests.md "Benchmark"). One thread, one file at a time; a second parse while it is busy gets
 * a thread of its own. A thread that fails, times out or runs out of memory is never kept; an idle one ends
 * after PARSE_THREAD_IDLE_MS and does not keep the process alive.
 */
interface KeptThread {
  worker: Worker;
  idleTimer: NodeJS.Timeout | null;
}
let kept: KeptThread | null = null;
let keptBusy = false;

const newThread = (heapMb: number) =>
  new Worker(THREAD_SOURCE, {
    eval: true,
    workerData: { xlsxPath: resolveXlsx() },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 64 },
  });

/** The kept thread, started when there is none. */
function keptThread(): KeptThread {
  if (kept) return kept;
  const k: KeptThread = { worker: newThread(PARSE_HEAP_MB), idleTimer: null };
  // a kept thread that ends (or fails) between files is dropped; a parse under way hears it on its own
  k.worker.on('error', () => undefined);
  k.worker.once('exit', () => {
    if (kept === k) kept = null;
  });
  return (kept = k);
}

/**
 * Start the kept parse thread ahead of a file; nothing when it is there already. The check route calls it as an
 * upload begins and the manifest job before it reads its file, so the thread's start (a new isolate loading
 * SheetJS: ~0.15 s here) overlaps receiving or reading the file instead of coming before the parse. Unused, it
 * ends after PARSE_THREAD_IDLE_MS like a kept thread after a file, and it never keeps the process alive.
 */
export function prewarmParseThread(): void {
  if (kept || keptBusy) return;
  const k = keptThread();
  k.worker.unref();
  k.idleTimer = setTimeout(() => void closeParseThread(), PARSE_THREAD_IDLE_MS);
  k.idleTimer.unref();
}

/** The kept parse thread's id, or null when none runs (tests, diagnostics). */
export const keptParseThreadId = (): number | null => kept?.worker.threadId ?? null;

/** End the kept parse thread now (tests; a worker process closing). */
export async function closeParseThread(): Promise<void> {
  const k = kept;
  kept = null;
  if (!k) return;
  if (k.idleTimer) clearTimeout(k.idleTimer);
  await k.worker.terminate();
}

type ThreadReply =
  ExtractResult | (Omit<Extract<ExtractResult, { ok: true }>, 'rows'> & { packed: PackedRows });

/**
 * Parse a manifest (after sniffManifest) in a worker thread with a heap and a time limit (step 2 above).
 * Resolves with the rows, or throws ManifestFileError with the reason; never crashes the caller.
 */
export function parseManifestFile(
  buf: Buffer,
  format: ManifestFormat,
  opts: ParseOptions = {},
): Promise<Extract<ExtractResult, { ok: true }>> {
  sniffManifest(buf, format);
  const limits = opts.limits ?? { maxRows: MANIFEST_LIMITS.maxRows, maxColumns: MANIFEST_LIMITS.maxColumns };
  const heapMb = opts.heapMb ?? PARSE_HEAP_MB;
  // the kept thread when it has the default heap limit and is free; otherwise a thread for this file only
  const keep = heapMb === PARSE_HEAP_MB && !keptBusy;
  const own = keep ? keptThread() : null;
  const worker = own ? own.worker : newThread(heapMb);
  if (own) {
    keptBusy = true;
    if (own.idleTimer) clearTimeout(own.idleTimer);
    own.idleTimer = null;
    worker.ref();
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (ok: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      fn();
      if (own) keptBusy = false;
      if (own && kept === own && ok) {
        // kept for the next file, without holding the process open
        worker.unref();
        own.idleTimer = setTimeout(() => void closeParseThread(), PARSE_THREAD_IDLE_MS);
        own.idleTimer.unref();
        return;
      }
      if (own && kept === own) kept = null;
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        done(false, () =>
          reject(new ManifestFileError(MANIFEST_MSG.timeout((opts.timeoutMs ?? PARSE_TIMEOUT_MS) / 1000))),
        ),
      opts.timeoutMs ?? PARSE_TIMEOUT_MS,
    );
    const onMessage = (r: ThreadReply) => {
      let rows: string[][] | null = null;
      if (r.ok && 'packed' in r) {
        try {
          rows = unpackRows(r.packed);
        } catch (err) {
          // never thrown by packRows' own answer; a thread answering nonsense is not kept
          const reason = String((err as Error).message).slice(0, 200);
          return done(false, () => reject(new ManifestFileError(MANIFEST_MSG.unreadable(format, reason))));
        }
      }
      done(true, () =>
        !r.ok
          ? reject(new ManifestFileError(r.message))
          : rows
            ? resolve({ ok: true, rows, formulas: r.formulas, truncated: r.truncated })
            : resolve(r as Extract<ExtractResult, { ok: true }>),
      );
    };
    const onError = (err: Error & { code?: string }) =>
      done(false, () =>
        reject(
          new ManifestFileError(
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? MANIFEST_MSG.outOfMemory
              : MANIFEST_MSG.unreadable(format, String(err.message).slice(0, 200)),
          ),
        ),
      );
    const onExit = (code: number) =>
      done(false, () => reject(new ManifestFileError(MANIFEST_MSG.readerStopped(code))));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ buf, format, limits });
  });
}
