import type { DomainModule, PlatformContext } from '@onco/platform';
import { requisitionModels, type RequisitionModels } from './models';
import { blankFormRoutes } from './routes/blank-form';
import { definePdfQueue, PDF_QUEUE, type PdfQueue } from './workers/pdf-queue';
import { createPdfRenderer, type PdfRenderer } from './pdf/render';
import { attachmentRoutes } from './attachments';
import { trfPrintRoutes } from './routes/trf';
import { defineTrfQueue, TRF_QUEUE, type TrfQueue } from './workers/trf-queue';
import {
  startRequisitionEditedConsumer,
  startRequisitionSubmittedConsumer,
} from './consumers/requisition-submitted';
import { startSampleManifestStatusConsumer } from './consumers/sample-manifest';
import { startPatientMergeConsumer } from './consumers/patient-merges';
import { requisitionsDashboard } from './dashboard';
import { startTestStatusProjection } from './projections/test-status';
import { startSampleStatusProjection } from './projections/sample-status';
import { startTimelineProjection } from './projections/timeline';
import { omsTestOrderFormRoutes, testOrderFormRoutes } from './routes/test-order-forms';
import type { PatientRegistrar, RequisitionDeps, SignatureVerifier } from './use-cases';

export interface RequisitionsModuleOptions {
  /** how long GET downloadBlankForm waits for the pdf job (default 60 s) */
  blankFormWaitMs?: number;
  /** a renderer to use instead of the default chromium one (tests) */
  renderer?: PdfRenderer;
  /** checks a signer's own login password (the server wires identity's check, which counts toward lockout) */
  verifySignature?: SignatureVerifier;
  /** registers a submitted requisition's new patient in the patient directory (wired by the server) */
  registerPatient?: PatientRegistrar;
}

export type RequisitionsModule = DomainModule & {
  models: RequisitionModels;
  pdf: PdfQueue;
  trf: TrfQueue;
  /** what its use cases take (use-cases/): the platform, the models and the calls to other modules */
  deps: RequisitionDeps;
};

/**
 * The requisitions service: test order forms (collection test_order_forms, which carries its pending events),
 * attachments, the counters behind human-readable numbers, generated documents and the `pdf` queue.
 * Mounted in the portal area (/portal/api/v1).
 */
export function createRequisitionsModule(
  ctx: PlatformContext,
  opts: RequisitionsModuleOptions = {},
): RequisitionsModule {
  const models = requisitionModels(ctx.mongo);
  // one chromium (launched on first render) for the blank form and the TRF PDFs
  const renderer =
    opts.renderer ?? createPdfRenderer({ executablePath: ctx.config.CHROMIUM_PATH, logger: ctx.logger });
  const pdf = definePdfQueue(ctx, { renderer });
  const trf = defineTrfQueue(ctx, { models, renderer });
  const deps: RequisitionDeps = {
    ctx,
    models,
    verifySignature: opts.verifySignature,
    registerPatient: opts.registerPatient,
    queueTrf: (job) => trf.add(job),
  };
  return {
    name: 'requisitions',
    queues: [PDF_QUEUE, TRF_QUEUE],
    models,
    pdf,
    trf,
    deps,
    outboxCollections: ['test_order_forms', 'attachments', 'patient_merge_runs'],
    dashboard: (user, range) => requisitionsDashboard(models, user, range),
    areas: {
      portal: async (app) => {
        await app.register(blankFormRoutes, { pdf, waitMs: opts.blankFormWaitMs });
        await app.register(attachmentRoutes, { models });
        await app.register(trfPrintRoutes, { models, trf });
        await app.register(testOrderFormRoutes, { models, deps });
      },
      oms: async (app) => {
        await app.register(omsTestOrderFormRoutes, { deps });
      },
    },
    // the pdf renderer's chromium closes after the workers (and so the renders in progress) have stopped
    stop: async () => {
      await pdf.close();
      await trf.close();
    },
    // requisition-submitted -> the TRF PDF job (consumers/requisition-submitted.ts)
    // test-status -> the requisition's summary of its tests (projections/test-status.ts)
    // sample -> the requisition's summary of its samples and its sampleStatuses (projections/sample-status.ts)
    // every order event -> the order's timeline (projections/timeline.ts)
    // sample-manifest -> a manifest attachment's status, processedOn and errorDetails (consumers/sample-manifest.ts)
    // patient (merged, merge-undone) -> the merge's requisitions moved, each with its requisition-changed, then
    // patient-requisitions (consumers/patient-merges.ts)
    startConsumers: async () => {
      const running = [
        await startRequisitionSubmittedConsumer(ctx, trf),
        // requisition-changed (form-edited) -> a new TRF PDF version
        await startRequisitionEditedConsumer(ctx, trf),
        await startTestStatusProjection(ctx, models),
        await startSampleStatusProjection(ctx, models),
        await startTimelineProjection(ctx, models),
        await startSampleManifestStatusConsumer(ctx, models),
        await startPatientMergeConsumer(ctx, models, deps),
      ];
      return { stop: async () => void (await Promise.all(running.map((c) => c.stop()))) };
    },
  };
}
