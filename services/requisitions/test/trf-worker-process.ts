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
import pino from 'pino';
import { runTestChild } from '@onco/testing';
import {
  connectMongo,
  createKafka,
  createMailer,
  createRedis,
  FileBlobStore,
  loadConfig,
  QueueRegistry,
  type PlatformContext,
} from '@onco/platform';
import { attachmentSchema, type AttachmentDoc } from '../src/models/attachment';
import { requisitionModels } from '../src/models';
import { createPdfRenderer, type PdfRenderer } from '../src/pdf/render';
import { defineTrfQueue } from '../src/workers/trf-queue';

const send = (msg: Record<string, unknown>) => process.send?.(msg);
const forever = () => new Promise<never>(() => undefined);

const stallRendered = process.env.TRF_STALL_RENDERED || null;
const stallInserted = process.env.TRF_STALL_INSERTED || null;

// before the models are compiled: the schema's hooks are read when the model is created
if (stallInserted) {
  attachmentSchema.post('save', async function (doc: AttachmentDoc) {
    if (doc.type === 'TRF' && doc.testOrderForm?.id === stallInserted) {
      send({ stalled: 'inserted', requisitionId: stallInserted });
      await forever();
    }
  });
}

async function main() {
  const config = loadConfig(process.env);
  if (config.NODE_ENV !== 'test') throw new Error('trf-worker-process is for tests only (NODE_ENV=test)');
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' });
  const mongo = await connectMongo(config.MONGO_URL);
  const redis = createRedis(config.REDIS_URL, { logger });
  const queues = new QueueRegistry(
    redis,
    () => createRedis(config.REDIS_URL, { forWorker: true, logger }),
    config.QUEUE_PREFIX,
    logger,
    config.QUEUE_LOCK_MS,
  );
  const ctx: PlatformContext = {
    config,
    logger,
    mongo,
    redis,
    kafka: createKafka(config, logger),
    mail: createMailer(config.MAIL_TRANSPORT, config.MAIL_FROM, config.MAILBOX_DIR),
    queues,
    blobs: new FileBlobStore(config.FILE_STORE_DIR),
    nudgeOutbox: () => undefined,
  };
  const real = createPdfRenderer({ executablePath: config.CHROMIUM_PATH, logger, idleCloseMs: 0 });
  const renderer: PdfRenderer = {
    get launches() {
      return real.launches;
    },
    status: () => real.status(),
    close: () => real.close(),
    async render(html, hooks) {
      const pdf = await real.render(html, hooks);
      if (stallRendered && html.includes(stallRendered)) {
        send({ stalled: 'rendered' });
        await forever();
      }
      return pdf;
    },
  };
  defineTrfQueue(ctx, { models: requisitionModels(mongo), renderer });
  queues.startWorkers();
  return async () => {
    await queues.close();
    await renderer.close();
    await mongo.close();
    redis.disconnect();
  };
}

runTestChild(main);

export type TrfWorkerProcessMessage =
  { ready: true; pid: number } | { stalled: 'rendered' | 'inserted'; requisitionId?: string };
