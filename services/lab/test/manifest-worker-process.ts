/**
 * A sample-manifest worker in a process of its own, for the test that kills it outright (SIGKILL) halfway through
 * a manifest. Started with child_process.fork (execArgv --import tsx) and a test system's environment (MONGO_URL,
 * REDIS_URL, QUEUE_PREFIX, FILE_STORE_DIR, NODE_ENV=test, ...): the same queue module, models and registry as the
 * server's workers, nothing else. With MANIFEST_STALL=<attachmentId> it stops inside that manifest's apply
 * transaction, after half of its new samples are inserted, tells its parent ({stalled: 'apply'}) and waits for
 * ever. It sends {ready: true} once its worker runs.
 */
import { forever, runTestWorkerChild, sendToParent, type TestChildReady } from '@onco/testing';
import { labModels } from '../src/models';
import { defineSampleManifestQueue } from '../src/manifests/queue';

const stall = process.env.MANIFEST_STALL || null;

runTestWorkerChild('manifest-worker-process', (ctx) => {
  defineSampleManifestQueue(ctx, {
    models: labModels(ctx.mongo),
    hooks: {
      midApply: async (attachmentId) => {
        if (attachmentId !== stall) return;
        sendToParent({ stalled: 'apply' });
        await forever();
      },
    },
  });
});

export type ManifestWorkerProcessMessage = TestChildReady | { stalled: 'apply' };
