/**
 * A sample-manifest worker in a process of its own, for the test that kills it outright (SIGKILL) halfway through
 * a manifest. Started with child_process.fork (execArgv --import tsx) and a test system's environment (MONGO_URL,
 * REDIS_URL, QUEUE_PREFIX, FILE_STORE_DIR, NODE_ENV=test, ...): the same queue module, models and registry as the
 * server's workers, nothing else. With MANIFEST_STALL=<attachmentId> it stops inside that manifest's apply
 * transaction, after half of its new samples are inserted, tells its parent ({stalled: 'apply'}) and waits for
 * ever. It sends {ready: true} once its worker runs.
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
import { labModels } from '../src/models';
import { defineSampleManifestQueue } from '../src/manifests/queue';

const send = (msg: Record<string, unknown>) => process.send?.(msg);
const stall = process.env.MANIFEST_STALL || null;

async function main() {
  const config = loadConfig(process.env);
  if (config.NODE_ENV !== 'test')
    throw new Error('manifest-worker-process is for tests only (NODE_ENV=test)');
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
  defineSampleManifestQueue(ctx, {
    models: labModels(mongo),
    hooks: {
      midApply: async (attachmentId) => {
        if (attachmentId !== stall) return;
        send({ stalled: 'apply' });
        await new Promise<never>(() => undefined);
      },
    },
  });
  queues.startWorkers();
  return async () => {
    await queues.close();
    await mongo.close();
    redis.disconnect();
  };
}

runTestChild(main);

export type ManifestWorkerProcessMessage = { ready: true; pid: number } | { stalled: 'apply' };
