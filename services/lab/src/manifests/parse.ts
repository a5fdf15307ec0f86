import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { MANIFEST_LIMITS, MANIFEST_MSG } from '@onco/domain';
import { ManifestFileError, type ManifestFormat } from './manifest-file';
import {
  extractSheet,
  packRows,
  unpackRows,
  type ExtractResult,
  type PackedRows,
  type SheetLimits,
} from './sheet';
import { sniffManifest } from './sniff';

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
export const PARSE_HEAP_MB = 1536;
export const PARSE_TIMEOUT_MS = 120_000;

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
