import { Readable } from 'node:stream';
import type { Job, JobsOptions, Queue } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import { linkAttachment, type AttachmentDoc } from '../models/attachment';
import type { RequisitionDoc } from '../models/requisition';
import type { RequisitionModels } from '../models';
import { createPdfRenderer, RENDER_PAGES, type PdfRenderer } from '../pdf/render';
import { TRF_FORM_VERSION, trfFormHtml } from '../pdf/trf-form';
import { trfAttachmentId, trfJobId, type TrfFailStage, type TrfJobData } from './trf-jobs';

export * from './trf-jobs';

/**
 * The `trf-pdf` queue (design.md rule 8): the filled Test Requisition Form of a submitted requisition, stored
 * as the requisition's TRF attachment. One module: the queue's name, its typed job data, `add` with a
 * deterministic job id, and the processor `exec`.
 *
 * Idempotency, per submission: a submission is identified by the requisition id and its submission time
 * (`submissionKey` = the event's submittedOn in epoch milliseconds). The job id `trf-<requisitionId>-<key>` makes
 * a duplicate add (a redelivered event) a no-op while the job is kept; the attachment's `_id` is the same
 * string, inserted (never upserted over), so a retried, duplicated or raced job can never create a second
 * TRF for one submission: `exec` looks for it before rendering, and the loser of an insert race removes its
 * blob. The attachment is then added to the requisition's list (idempotent: one conditional `$push`), which
 * also repairs a crash between the insert and the list update.
 *
 * `exec` re-reads the requisition and stops (completes without rendering) when it is gone, deleted or not
 * SUBMITTED, or when a TRF of a later submission already exists (stale job).
 *
 * Throughput: up to TRF_CONCURRENCY jobs run at once, while the shared renderer lets only RENDER_PAGES pages
 * render at once, so one job's database work (reads, attachment insert, requisition list) overlaps another's
 * render. The two reads run together; the list update is one conditional `$push` (linkAttachment).
 *
 * Retries: 5 attempts, exponential backoff from 2 s. Test-only fault injection (NODE_ENV=test): `failTimes`
 * makes the first n attempts throw at the stage `failAt` (before rendering, after rendering, after storing
 * the blob, or after inserting the attachment).
 */
export const TRF_QUEUE = 'trf-pdf';
export const TRF_ATTEMPTS = 5;
export const TRF_BACKOFF_MS = 2000;
/** jobs at once; chromium renders at most TRF_RENDER_PAGES of them at a time (pdf/render.ts) */
export const TRF_CONCURRENCY = 8;
export const TRF_RENDER_PAGES = RENDER_PAGES;
/**
 * A TRF job's lock (renewed every half) and the stalled check: a job whose worker was killed is rendered again
 * within about twice this, not after QUEUE_LOCK_MS (30 s): the fault drill's killed worker left its active jobs' PDFs
 * 52 s late. Safe: a job run twice renders once (it looks for its TRF first; the attachment is insert-unique), and
 * the render runs in chromium, not on the event loop that renews the lock.
 */
export const TRF_LOCK_MS = 3000;

export interface TrfJobResult {
  attachmentId: string;
  /** 'created': rendered and stored now; 'exists': an earlier attempt or job did it; 'skipped': see reason */
  outcome: 'created' | 'exists' | 'skipped';
  reason?: 'missing' | 'deleted' | 'not-submitted' | 'stale' | 'removed-by-user';
  blobId?: string | null;
  size?: number;
  renderMs?: number | null;
  /** where the job's time went (reads, render, file store, attachment insert, requisition link), in ms */
  timings?: Record<string, number>;
}

export const trfFileName = (testRequisitionId: string | null, editedOn?: Date | null) =>
  editedOn
    ? `TRF ${testRequisitionId ?? 'requisition'} edited ${editedOn.toISOString().slice(0, 16).replace('T', ' ')}.pdf`
    : `TRF ${testRequisitionId ?? 'requisition'}.pdf`;

/** When the requisition was submitted, from its TRFs' ids (each carries its submission or edit key): the earliest. */
function submittedOnOf(trf: RequisitionDoc): Date | null {
  const prefix = trfAttachmentId(trf._id, '');
  const keys = (trf.attachments ?? [])
    .filter((a) => a.type === 'TRF' && a.id.startsWith(prefix))
    .map((a) => Number(a.id.slice(prefix.length)))
    .filter(Number.isFinite);
  return keys.length ? new Date(Math.min(...keys)) : null;
}

export interface TrfQueue {
  name: typeof TRF_QUEUE;
  queue: Queue<TrfJobData>;
  /** add the job of one submission under its deterministic id (opts may override attempts/backoff in tests) */
  add(data: TrfJobData, opts?: JobsOptions): Promise<Job<TrfJobData>>;
  exec(job: Job<TrfJobData>): Promise<TrfJobResult>;
  /** the newest non-deleted TRF attachment of a requisition whose file exists */
  latest(requisitionId: string): Promise<AttachmentDoc | null>;
  close(): Promise<void>;
}

class InjectedFailure extends Error {}

const editedOnOf = (job: Job<TrfJobData>) => (job.data.editedOn ? new Date(job.data.editedOn) : null);

const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** What the queue's functions need: the platform, the models, and the renderer (created on first use). */
interface TrfQueueDeps {
  ctx: PlatformContext;
  models: RequisitionModels;
  getRenderer: () => PdfRenderer;
}

async function blobExists(deps: TrfQueueDeps, blobId: string | null): Promise<boolean> {
  if (!blobId) return false;
  try {
    await deps.ctx.blobs.size(blobId);
    return true;
  } catch {
    return false;
  }
}

// the requisition's TRF records, newest first (index testOrderForm.id); the first whose file exists
async function latest(deps: TrfQueueDeps, requisitionId: string): Promise<AttachmentDoc | null> {
  const candidates = await deps.models.Attachment.find({
    'testOrderForm.id': requisitionId,
    type: 'TRF',
    deleted: { $ne: true },
  })
    .sort({ createdOn: -1, _id: -1 })
    .limit(5)
    .lean<AttachmentDoc[]>()
    .exec();
  for (const d of candidates) if (await blobExists(deps, d.blobId)) return d;
  return null;
}

function maybeFail(deps: TrfQueueDeps, job: Job<TrfJobData>, stage: TrfFailStage) {
  const { failTimes, failAt = 'start' } = job.data;
  if (deps.ctx.config.NODE_ENV !== 'test' || !failTimes || failAt !== stage) return;
  if (job.attemptsMade < failTimes)
    throw new InjectedFailure(
      `injected failure at ${stage} on attempt ${job.attemptsMade + 1} of ${failTimes} (test only)`,
    );
}

/**
 * The requisition to print, or the job's result without rendering: the requisition gone, deleted or not
 * SUBMITTED; this submission's TRF made by an earlier attempt or job; a later submission's TRF on the list.
 */
async function readSubmission(
  deps: TrfQueueDeps,
  job: Job<TrfJobData>,
): Promise<{ trf: RequisitionDoc } | { done: TrfJobResult }> {
  const { ctx } = deps;
  const { Requisition, Attachment } = deps.models;
  const { requisitionId, submissionKey } = job.data;
  const _id = trfAttachmentId(requisitionId, submissionKey);
  // both reads at once: the requisition, and this submission's TRF if an earlier attempt or job made it
  const [trf, existing] = await Promise.all([
    Requisition.findById(requisitionId, { outbox: 0 }).lean<RequisitionDoc>().exec(),
    Attachment.findById(_id).lean<AttachmentDoc>().exec(),
  ]);
  const skip = (reason: TrfJobResult['reason']) => {
    ctx.logger.info({ requisitionId, submissionKey, reason }, 'TRF PDF job skipped');
    return { done: { attachmentId: _id, outcome: 'skipped', reason } satisfies TrfJobResult };
  };
  if (!trf) return skip('missing');
  if (trf.deleted) return skip('deleted');
  if (trf.status !== 'SUBMITTED') return skip('not-submitted');

  // done before (a retry, a redelivered event, or another worker): stop here
  if (existing) {
    if (existing.deleted) return skip('removed-by-user');
    if (await blobExists(deps, existing.blobId)) {
      await linkAttachment(Requisition, requisitionId, existing, 'system');
      return {
        done: { attachmentId: _id, outcome: 'exists', blobId: existing.blobId, size: existing.size },
      };
    }
    // the record outlived its file (store wiped or restored): render it again
    ctx.logger.warn(
      { attachmentId: _id, blobId: existing.blobId },
      'TRF attachment lost its file; regenerating',
    );
    await Attachment.deleteOne({ _id, blobId: existing.blobId }).exec();
  }
  // a later submission's TRF already on the requisition's own list (ids carry the submission key): this job
  // is stale. The list is on the document just read, so no scan of the attachments collection is needed.
  const prefix = trfAttachmentId(requisitionId, '');
  const later = (trf.attachments ?? []).some(
    (a) =>
      a.type === 'TRF' &&
      a.id.startsWith(prefix) &&
      Number(a.id.slice(prefix.length)) > Number(submissionKey),
  );
  if (later) return skip('stale');
  return { trf };
}

/**
 * This submission's TRF attachment inserted (its `_id` deterministic, never upserted over): true, or false when
 * another attempt inserted it first. The blob is removed when the insert fails.
 */
async function insertTrfAttachment(
  deps: TrfQueueDeps,
  job: Job<TrfJobData>,
  trf: RequisitionDoc,
  stored: { id: string; size: number; sha256: string },
  now: Date,
): Promise<boolean> {
  const { requisitionId, submissionKey } = job.data;
  try {
    maybeFail(deps, job, 'stored');
    try {
      await deps.models.Attachment.create({
        _id: trfAttachmentId(requisitionId, submissionKey),
        name: trfFileName(trf.testRequisitionId, editedOnOf(job)),
        type: 'TRF',
        status: 'PROCESSED',
        size: stored.size,
        sha256: stored.sha256,
        contentType: 'application/pdf',
        blobId: stored.id,
        account: { id: trf.account?.id ?? null, name: trf.account?.name ?? null },
        testOrderForm: { id: requisitionId },
        physician: { id: trf.physician?.id ?? null },
        submissionKey,
        // a version made by an Edit is the editor's (the TRF list says who and when); a submission's, the system's
        attachedBy: job.data.editedBy ?? { id: 'system', name: 'System' },
        processedOn: now,
        createdOn: now,
        createdBy: 'system',
        updatedOn: now,
        updatedBy: 'system',
      });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  } catch (err) {
    await deps.ctx.blobs.remove(stored.id).catch(() => undefined);
    throw err;
  }
  return false;
}

async function exec(deps: TrfQueueDeps, job: Job<TrfJobData>): Promise<TrfJobResult> {
  const { ctx } = deps;
  const { Requisition, Attachment } = deps.models;
  const { requisitionId, submissionKey, submittedOn } = job.data;
  const _id = trfAttachmentId(requisitionId, submissionKey);
  maybeFail(deps, job, 'start');
  const t0 = Date.now();

  const read = await readSubmission(deps, job);
  if ('done' in read) return read.done;
  const { trf } = read;

  const queued = Date.now();
  const readMs = queued - t0;
  let started = queued;
  const editedOn = editedOnOf(job);
  const html = trfFormHtml(trf, {
    submittedOn: editedOn ? submittedOnOf(trf) : new Date(submittedOn),
    editedOn,
    formVersion: TRF_FORM_VERSION,
  });
  const pdf = await deps.getRenderer().render(html, { onPage: () => (started = Date.now()) });
  // the wait for a free chromium page (other jobs rendering), then the render itself
  const pageWaitMs = started - queued;
  const renderMs = Date.now() - started;
  maybeFail(deps, job, 'rendered');

  const stored = await ctx.blobs.put(Readable.from([pdf]));
  const storeMs = Date.now() - started - renderMs;
  const insertedOn = new Date();
  if (!(await insertTrfAttachment(deps, job, trf, stored, insertedOn))) {
    // another attempt inserted this submission's TRF first: keep theirs
    await ctx.blobs.remove(stored.id).catch(() => undefined);
    const winner = await Attachment.findById(_id).lean<AttachmentDoc>().exec();
    if (winner && !winner.deleted) await linkAttachment(Requisition, requisitionId, winner, 'system');
    return { attachmentId: _id, outcome: 'exists', blobId: winner?.blobId ?? null, size: winner?.size };
  }
  await job.log(`rendered ${stored.size} bytes in ${renderMs} ms; blob ${stored.id}`).catch(() => undefined);
  maybeFail(deps, job, 'inserted');

  const doc = {
    _id,
    name: trfFileName(trf.testRequisitionId, editedOn),
    type: 'TRF',
    size: stored.size,
    contentType: 'application/pdf',
    createdOn: insertedOn,
  } as unknown as AttachmentDoc;
  const t1 = Date.now();
  const linked = await linkAttachment(Requisition, requisitionId, doc, 'system');
  const timings = {
    readMs,
    pageWaitMs,
    renderMs,
    storeMs,
    insertMs: t1 - insertedOn.getTime(),
    linkMs: Date.now() - t1,
  };
  if (!linked)
    ctx.logger.warn({ requisitionId, attachmentId: _id }, 'requisition deleted while its TRF rendered');
  ctx.logger.info(
    { requisitionId, attachmentId: _id, size: stored.size, ...timings, attempt: job.attemptsMade + 1 },
    'TRF PDF generated',
  );
  return { attachmentId: _id, outcome: 'created', blobId: stored.id, size: stored.size, renderMs, timings };
}

export function defineTrfQueue(
  ctx: PlatformContext,
  opts: { models: RequisitionModels; renderer?: PdfRenderer },
): TrfQueue {
  const ownsRenderer = !opts.renderer;
  let renderer = opts.renderer ?? null;
  const getRenderer = () =>
    (renderer ??= createPdfRenderer({ executablePath: ctx.config.CHROMIUM_PATH, logger: ctx.logger }));
  const deps: TrfQueueDeps = { ctx, models: opts.models, getRenderer };
  const processor = (job: Job<TrfJobData>) => exec(deps, job);

  const handle = ctx.queues.define<TrfJobData>({
    name: TRF_QUEUE,
    attempts: TRF_ATTEMPTS,
    backoffMs: TRF_BACKOFF_MS,
    concurrency: TRF_CONCURRENCY,
    lockMs: TRF_LOCK_MS,
    // a job may lose its worker as often as it may be retried: running it again is safe (above)
    maxStalledCount: TRF_ATTEMPTS,
    processor,
  });

  return {
    name: TRF_QUEUE,
    queue: handle.queue,
    add: (data, jobOpts) =>
      handle.add(data, { jobId: trfJobId(data.requisitionId, data.submissionKey), ...jobOpts }),
    exec: processor,
    latest: (requisitionId) => latest(deps, requisitionId),
    async close() {
      if (ownsRenderer && renderer) await renderer.close();
    },
  };
}
