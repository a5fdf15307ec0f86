import { QueueEvents } from 'bullmq';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { AppError, errorBody, typed } from '@onco/platform';
import { BLANK_FORM_VERSION } from '../pdf/blank-form';
import { blankFormJobId, PDF_QUEUE, type PdfQueue } from '../workers/pdf-queue';

export const BLANK_FORM_FILENAME = 'TRF Document.pdf';
export const BLANK_FORM_WAIT_MS = 60_000;
export const MSG_FORM_BEING_GENERATED = 'The form is being generated. Try again in a minute.';
export const MSG_FORM_FAILED = 'The form could not be generated. Try again later.';

export interface BlankFormRouteOptions {
  pdf: PdfQueue;
  /** how long a request waits for the job (default 60 s) */
  waitMs?: number;
}

/**
 * GET /portal/api/v1/testOrderForms/downloadBlankForm (spec 1 section 7): the blank TRF as a PDF attachment.
 * Served from the generated_documents cache; on a miss the request enqueues the (deterministic) job and waits
 * for it through QueueEvents, so it works whether the worker runs in this process or in another one.
 * A wait that times out answers 503; a job that exhausted its attempts answers 503 with a different text
 * and the next request starts a fresh job.
 */
export async function blankFormRoutes(app: FastifyInstance, opts: BlankFormRouteOptions) {
  const r = typed(app);
  const { pdf } = opts;
  const waitMs = opts.waitMs ?? BLANK_FORM_WAIT_MS;
  const { config, redis, logger } = app.platform;

  // one QueueEvents per process (module instance), created on the first cache miss
  let events: QueueEvents | null = null;
  function queueEvents(): QueueEvents {
    if (!events) {
      events = new QueueEvents(PDF_QUEUE, {
        // a blocking reader needs its own connection with maxRetriesPerRequest null (the shared one fails fast)
        connection: {
          ...redis.options,
          maxRetriesPerRequest: null,
          enableOfflineQueue: true,
          lazyConnect: false,
        },
        prefix: config.QUEUE_PREFIX,
      });
      events.on('error', (err) => logger.warn({ err: err.message }, 'pdf queue events error'));
    }
    return events;
  }
  app.addHook('onClose', async () => {
    const e = events;
    events = null;
    if (e) await e.close().catch(() => undefined);
  });

  async function enqueue() {
    const jobId = blankFormJobId(BLANK_FORM_VERSION);
    const existing = await pdf.queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      // a finished job keeps its id: remove it so the add below starts a new one (its record is gone, or it failed)
      if (state === 'completed' || state === 'failed') await existing.remove().catch(() => undefined);
      else return existing;
    }
    return pdf.add({ kind: 'blank-form', formVersion: BLANK_FORM_VERSION });
  }

  r.get(
    '/testOrderForms/downloadBlankForm',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['requisitions'],
        summary: `The blank Test Requisition Form (version ${BLANK_FORM_VERSION}) as a PDF`,
        response: {
          200: z
            .unknown()
            .describe('The PDF (application/pdf), sent as an attachment named "TRF Document.pdf"'),
          503: errorBody,
        },
      },
    },
    async (req, reply) => {
      let doc = await pdf.findBlankForm(BLANK_FORM_VERSION);
      if (!doc) {
        const qe = queueEvents();
        const job = await enqueue();
        try {
          await job.waitUntilFinished(qe, waitMs);
        } catch (err) {
          const message = (err as Error).message ?? '';
          if (/timed out/.test(message)) {
            req.log.warn({ jobId: job.id, waitMs }, 'blank form not ready in time');
            throw new AppError(503, 'PDF_NOT_READY', MSG_FORM_BEING_GENERATED);
          }
          req.log.error({ jobId: job.id, reason: message }, 'blank form job failed');
          throw new AppError(503, 'PDF_GENERATION_FAILED', MSG_FORM_FAILED);
        }
        doc = await pdf.findBlankForm(BLANK_FORM_VERSION);
        if (!doc) throw new AppError(503, 'PDF_NOT_READY', MSG_FORM_BEING_GENERATED);
      }
      const stream = await app.platform.blobs.get(doc.blobId);
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${BLANK_FORM_FILENAME}"`)
        .header('Content-Length', String(doc.size))
        .header('ETag', `"${doc.sha256}"`)
        .header('Cache-Control', 'private, max-age=300')
        .send(stream);
    },
  );
}
