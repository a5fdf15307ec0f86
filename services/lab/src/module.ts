import type { DomainModule, PlatformContext } from '@onco/platform';
import { dropObsoleteSampleIndexes, labModels, type LabModels } from './models';
import { testOrderRoutes } from './routes/test-orders';
import { sampleRoutes } from './routes/samples';
import { sampleReviewAccount } from './samples';
import { reportRoutes } from './routes/reports';
import { barcodeRoutes } from './routes/barcodes';
import type { PdfRender } from './use-cases';
import { startRequisitionSubmittedConsumer } from './consumers/requisition-submitted';
import { startRequisitionChangedConsumer } from './consumers/requisition-changed';
import { labDashboard } from './dashboard';
import {
  defineSampleManifestQueue,
  SAMPLE_MANIFEST_QUEUE,
  type SampleManifestQueue,
} from './manifests/queue';
import { startSampleManifestConsumer } from './manifests/consumer';
import { sampleManifestRoutes } from './manifests/routes';
import { defineReportUploadSweep, REPORT_SWEEP_QUEUE, type ReportUploadSweep } from './report-sweep';

export interface LabModuleOptions {
  /** renders the barcode labels' PDF: the process's chromium renderer, wired by the server (none: print is 503) */
  pdf?: PdfRender;
}

export type LabModule = DomainModule & {
  models: LabModels;
  manifests: SampleManifestQueue;
  reportSweep: ReportUploadSweep;
  /** a test's current report file (the last version), or null: what the billing module sends with its claim */
  currentReport(testOrderId: string): Promise<{ fileId: string; fileName: string } | null>;
};

/**
 * The lab service: test orders, samples and sample groups (test_orders and samples carry pending events), and
 * container barcodes. Mounted in the orders area (/oms/api/v1). Its requisition-submitted consumer creates the test orders; it
 * contributes the test counters and the recently completed tests to the home dashboard.
 */
export function createLabModule(ctx: PlatformContext, opts: LabModuleOptions = {}): LabModule {
  const models = labModels(ctx.mongo);
  const reviewAccountId = sampleReviewAccount(ctx.config);
  // sample manifests (docs/manifests.md): attachment.changed -> the `sample-manifest` queue -> samples
  const manifests = defineSampleManifestQueue(ctx, { models, reviewAccountId });
  // report uploads that expired unsubmitted: swept on a schedule by the worker processes (report-sweep.ts)
  const reportSweep = defineReportUploadSweep(ctx, models);
  return {
    name: 'lab',
    queues: [SAMPLE_MANIFEST_QUEUE, REPORT_SWEEP_QUEUE],
    models,
    manifests,
    reportSweep,
    currentReport: async (testOrderId) => {
      const t = await models.TestOrder.findById(testOrderId, { reports: { $slice: -1 } })
        .lean<{ reports?: Array<{ fileId: string; fileName: string }> }>()
        .exec();
      const last = t?.reports?.at(-1);
      return last ? { fileId: last.fileId, fileName: last.fileName } : null;
    },
    outboxCollections: ['test_orders', 'samples', 'sample_manifests'],
    startConsumers: async () => {
      const running = [
        await startRequisitionChangedConsumer(ctx, models),
        await startRequisitionSubmittedConsumer(ctx, models),
        await startSampleManifestConsumer(ctx, models, manifests),
      ];
      // not awaited: a process starting while Redis is away puts the scheduler in place when Redis is back
      void reportSweep
        .schedule()
        .catch((err) =>
          ctx.logger.warn({ err: (err as Error).message }, 'report upload sweep not scheduled'),
        );
      return { stop: async () => void (await Promise.all(running.map((c) => c.stop()))) };
    },
    stop: () => manifests.close(),
    dashboard: (user, range) => labDashboard(models, user, range),
    areas: {
      oms: async (app) => {
        await dropObsoleteSampleIndexes(models.Sample);
        await app.register(testOrderRoutes, { models });
        await app.register(sampleRoutes, { models, reviewAccountId });
        await app.register(reportRoutes, { models });
        await app.register(barcodeRoutes, { models, pdf: opts.pdf ?? null });
      },
      portal: async (app) => {
        await app.register(sampleManifestRoutes, { models, reviewAccountId, queue: manifests.queue });
      },
    },
  };
}
