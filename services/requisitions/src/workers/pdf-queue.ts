import { Readable } from 'node:stream';
import { UnrecoverableError, type Job, type JobsOptions, type Queue } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import { generatedDocumentModel, type GeneratedDocumentDoc } from '../models/generated-document';
import { BLANK_FORM_VERSION, blankFormHtml, type BlankFormVersion } from '../pdf/blank-form';
import { createPdfRenderer, type PdfRenderer } from '../pdf/render';

/**
 * The `pdf` queue (design.md rule 8): one module holds the queue's name, its typed job data, `add` (with a
 * deterministic job id) and the processor `exec`. Kinds: 'blank-form' now; 'trf' (a submitted requisition's
 * filled form) later.
 *
 * Idempotency: the job id is derived from the data (`blank-form-102-210-C`), so adding the same job while it is
 * waiting, delayed or active is a no-op; the processor re-reads the `generated_documents` record first and stops
 * when it already exists; the record's `_id` is deterministic (`blank-form:102-210-C`) and written with an upsert
 * + $setOnInsert, so two racing attempts can never create two records: the loser removes the blob it wrote.
 *
 * Retries: 5 attempts, exponential backoff from 1 s (2nd attempt after 1 s, then 2 s, 4 s, 8 s). A failed job is
 * kept in the failed set (the registry's removeOnFail: false) and shown by the operations view with its reason.
 *
 * The processor runs in the worker process itself, not in a BullMQ sandboxed child: chromium is already a
 * separate process (a crash there fails the attempt and the renderer relaunches it), and the processor needs
 * the process's MongoDB connection and blob store. A TypeScript processor file would also need a loader in the
 * forked child.
 */
export const PDF_QUEUE = 'pdf';
export const PDF_ATTEMPTS = 5;
export const PDF_BACKOFF_MS = 1000;

export interface BlankFormJob {
  kind: 'blank-form';
  formVersion: BlankFormVersion;
  /**
   * Fault injection for tests: the first `failTimes` attempts throw. Honoured only when NODE_ENV is 'test';
   * ignored everywhere else.
   */
  failTimes?: number;
}
/** Typed job data; later kinds join this union (e.g. {kind: 'trf', requisitionId}). */
export type PdfJobData = BlankFormJob;

export interface PdfJobResult {
  documentId: string;
  blobId: string;
  sha256: string;
  size: number;
  /** false when the record already existed (a retry, a duplicate, or another process won) */
  created: boolean;
  renderMs: number | null;
}

export const blankFormJobId = (version: string) => `blank-form-${version}`;
export const blankFormDocumentId = (version: string) => `blank-form:${version}`;

export function pdfJobId(data: PdfJobData): string {
  switch (data.kind) {
    case 'blank-form':
      return blankFormJobId(data.formVersion);
  }
}

export interface PdfQueue {
  name: typeof PDF_QUEUE;
  queue: Queue<PdfJobData>;
  /** add a job with its deterministic id (opts may override attempts/backoff, e.g. in tests) */
  add(data: PdfJobData, opts?: JobsOptions): Promise<Job<PdfJobData>>;
  /** the processor */
  exec(job: Job<PdfJobData>): Promise<PdfJobResult>;
  /** the cached blank form, when its record and its blob both exist */
  findBlankForm(version?: string): Promise<GeneratedDocumentDoc | null>;
  /** close the renderer's browser (after renders in progress finish) */
  close(): Promise<void>;
}

/** What the queue's functions need: the platform, the generated documents, the renderer (created on first use). */
interface PdfQueueDeps {
  ctx: PlatformContext;
  Generated: ReturnType<typeof generatedDocumentModel>;
  getRenderer: () => PdfRenderer;
}

async function blobExists(deps: PdfQueueDeps, blobId: string): Promise<boolean> {
  try {
    await deps.ctx.blobs.size(blobId);
    return true;
  } catch {
    return false;
  }
}

async function findBlankForm(
  deps: PdfQueueDeps,
  version: string = BLANK_FORM_VERSION,
): Promise<GeneratedDocumentDoc | null> {
  const doc = await deps.Generated.findById(blankFormDocumentId(version)).lean<GeneratedDocumentDoc>().exec();
  if (!doc) return null;
  return (await blobExists(deps, doc.blobId)) ? doc : null;
}

async function generateBlankForm(
  deps: PdfQueueDeps,
  job: Job<PdfJobData>,
  version: BlankFormVersion,
): Promise<PdfJobResult> {
  const { ctx, Generated } = deps;
  const _id = blankFormDocumentId(version);
  // re-read first: a retried or duplicated job whose work is done stops here
  const existing = await Generated.findById(_id).lean<GeneratedDocumentDoc>().exec();
  if (existing) {
    if (await blobExists(deps, existing.blobId)) {
      return {
        documentId: _id,
        blobId: existing.blobId,
        sha256: existing.sha256,
        size: existing.size,
        created: false,
        renderMs: null,
      };
    }
    // the record outlived its blob (file store wiped or restored): drop the record and render again
    ctx.logger.warn(
      { documentId: _id, blobId: existing.blobId },
      'generated document lost its blob; regenerating',
    );
    await Generated.deleteOne({ _id, blobId: existing.blobId }).exec();
  }

  const started = Date.now();
  const pdf = await deps.getRenderer().render(blankFormHtml({ formVersion: version }));
  const renderMs = Date.now() - started;
  const stored = await ctx.blobs.put(Readable.from([pdf]));
  await job.log(`rendered ${stored.size} bytes in ${renderMs} ms; blob ${stored.id}`).catch(() => undefined);

  let doc: GeneratedDocumentDoc | null = null;
  try {
    doc = await Generated.findOneAndUpdate(
      { _id },
      {
        $setOnInsert: {
          kind: 'blank-form',
          formVersion: version,
          blobId: stored.id,
          sha256: stored.sha256,
          size: stored.size,
          contentType: 'application/pdf',
          renderMs,
          createdOn: new Date(),
        },
      },
      { upsert: true, returnDocument: 'after' },
    )
      .lean<GeneratedDocumentDoc>()
      .exec();
  } catch (err: any) {
    // two upserts raced on the same _id: the other one inserted
    if (err?.code !== 11000) {
      await ctx.blobs.remove(stored.id).catch(() => undefined);
      throw err;
    }
    doc = await Generated.findById(_id).lean<GeneratedDocumentDoc>().exec();
  }
  if (!doc) throw new Error(`generated document ${_id} missing after upsert`);
  const created = doc.blobId === stored.id;
  if (!created) await ctx.blobs.remove(stored.id).catch(() => undefined);
  ctx.logger.info(
    { documentId: _id, blobId: doc.blobId, size: doc.size, renderMs, created },
    'blank form generated',
  );
  return { documentId: _id, blobId: doc.blobId, sha256: doc.sha256, size: doc.size, created, renderMs };
}

async function exec(deps: PdfQueueDeps, job: Job<PdfJobData>): Promise<PdfJobResult> {
  const data = job.data;
  if (deps.ctx.config.NODE_ENV === 'test' && data.failTimes && job.attemptsMade < data.failTimes) {
    throw new Error(`injected failure on attempt ${job.attemptsMade + 1} of ${data.failTimes} (test only)`);
  }
  switch (data.kind) {
    case 'blank-form':
      return generateBlankForm(deps, job, data.formVersion);
    default:
      // an unknown kind can never succeed: fail without retrying
      throw new UnrecoverableError(`unknown pdf job kind: ${String((data as { kind?: unknown }).kind)}`);
  }
}

export function definePdfQueue(ctx: PlatformContext, opts: { renderer?: PdfRenderer } = {}): PdfQueue {
  const Generated = generatedDocumentModel(ctx.mongo);
  let renderer = opts.renderer ?? null;
  const getRenderer = () =>
    (renderer ??= createPdfRenderer({ executablePath: ctx.config.CHROMIUM_PATH, logger: ctx.logger }));
  const deps: PdfQueueDeps = { ctx, Generated, getRenderer };
  const processor = (job: Job<PdfJobData>) => exec(deps, job);

  const handle = ctx.queues.define<PdfJobData>({
    name: PDF_QUEUE,
    attempts: PDF_ATTEMPTS,
    backoffMs: PDF_BACKOFF_MS,
    concurrency: 1,
    processor,
  });

  return {
    name: PDF_QUEUE,
    queue: handle.queue,
    add: (data, jobOpts) => handle.add(data, { jobId: pdfJobId(data), ...jobOpts }),
    exec: processor,
    findBlankForm: (version) => findBlankForm(deps, version),
    async close() {
      if (renderer) await renderer.close();
    },
  };
}
