/**
 * A TRF PDF worker in a process of its own, for the tests that kill it outright (SIGKILL) in the middle of a
 * job. Started with child_process.fork (execArgv --import tsx) and the environment of a test system (MONGO_URL,
 * REDIS_URL, QUEUE_PREFIX, FILE_STORE_DIR, NODE_ENV=test, ...): the same trf-pdf queue module, models, renderer
 * and queue registry as the server's workers, nothing else (no HTTP, no consumers, no outbox relay).
 *
 * Test-only stalls, so the parent can kill the process at a known point of a job:
 *   TRF_STALL_RENDERED=<text>  after rendering the HTML that contains <text>, before the file is stored
 *   TRF_STALL_INSERTED=<id>    after inserting the TRF attachment of requisition <id>, before the requisition's
 *                              list is updated
 * At a stall the process tells its parent ({stalled: 'rendered' | 'inserted', requisitionId?}) and waits for ever.
 * It sends {ready: true} once its worker runs.
 */
import { forever, runTestWorkerChild, sendToParent, type TestChildReady } from '@onco/testing';
import { attachmentSchema, type AttachmentDoc } from '../src/models/attachment';
import { requisitionModels } from '../src/models';
import { createPdfRenderer, type PdfRenderer } from '../src/pdf/render';
import { defineTrfQueue } from '../src/workers/trf-queue';

const stallRendered = process.env.TRF_STALL_RENDERED || null;
const stallInserted = process.env.TRF_STALL_INSERTED || null;

// before the models are compiled: the schema's hooks are read when the model is created
if (stallInserted) {
  attachmentSchema.post('save', async function (doc: AttachmentDoc) {
    if (doc.type === 'TRF' && doc.testOrderForm?.id === stallInserted) {
      sendToParent({ stalled: 'inserted', requisitionId: stallInserted });
      await forever();
    }
  });
}

runTestWorkerChild('trf-worker-process', (ctx) => {
  const real = createPdfRenderer({
    executablePath: ctx.config.CHROMIUM_PATH,
    logger: ctx.logger,
    idleCloseMs: 0,
  });
  const renderer: PdfRenderer = {
    get launches() {
      return real.launches;
    },
    status: () => real.status(),
    close: () => real.close(),
    async render(html, hooks) {
      const pdf = await real.render(html, hooks);
      if (stallRendered && html.includes(stallRendered)) {
        sendToParent({ stalled: 'rendered' });
        await forever();
      }
      return pdf;
    },
  };
  defineTrfQueue(ctx, { models: requisitionModels(ctx.mongo), renderer });
  return () => renderer.close();
});

export type TrfWorkerProcessMessage =
  TestChildReady | { stalled: 'rendered' | 'inserted'; requisitionId?: string };
