import type { DomainModule, PlatformContext } from '@onco/platform';
import { billingModels, type BillingModels } from './models';
import { billingCaseRoutes } from './routes/billing-cases';
import { billingDashboard } from './dashboard';
import { billingActionRoutes } from './routes/billing-actions';
import { startBillingConsumers } from './consumers/cases';
import { defineBillingSubmitQueue, type BillingSubmitQueue } from './submission/queue';
import { BILLING_SUBMIT_QUEUE } from './submission/submit-job';
import { defineBillingStatusFeed, type BillingStatusFeed } from './submission/status-feed';
import { billingSubmitRoutes } from './submission/routes';
import { defineBillingDocumentsQueue, type BillingDocumentsQueue } from './submission/documents-queue';
import type { ClaimDocumentSource } from './submission/documents-job';
import type { DiagnosisCodeCatalog } from './submission/rules';

export type BillingModule = DomainModule & {
  models: BillingModels;
  submission: BillingSubmitQueue;
  statusFeed: BillingStatusFeed;
  documents: BillingDocumentsQueue;
};

/**
 * The billing service: billing cases (billing_cases carries pending events), submitted to XIFIN by workers
 * in a later issue. Mounted in the billing area (/bis/api/v1).
 */
export interface BillingModuleOptions {
  /** the ICD-10-CM catalog the pre-submit checks look codes up in (the reference module's, wired by the server) */
  diagnosisCodes: DiagnosisCodeCatalog;
  /**
   * where a claim's report and TRF PDFs are found (the lab's and the requisitions' public calls, wired by the
   * server); without it no documents are uploaded
   */
  claimDocuments?: ClaimDocumentSource;
}

export function createBillingModule(ctx: PlatformContext, opts: BillingModuleOptions): BillingModule {
  const models = billingModels(ctx.mongo);
  // the billing-submit queue; its worker runs where the registry starts workers (WORKERS=true)
  // the documents behind each claim the billing system took (submission/documents-job.ts)
  const documents = defineBillingDocumentsQueue(ctx, { models, source: opts.claimDocuments ?? null });
  const submission = defineBillingSubmitQueue(ctx, { models, documents });
  // the billing system's later statuses, polled on a schedule by the worker processes (submission/status-feed.ts)
  const statusFeed = defineBillingStatusFeed(ctx, { models, documents });
  return {
    name: 'billing',
    queues: [BILLING_SUBMIT_QUEUE, statusFeed.name, documents.name],
    models,
    submission,
    statusFeed,
    documents,
    outboxCollections: ['billing_cases'],
    // test-status and requisition-* events -> billing cases (consumers/cases.ts)
    // (and, before the workers start, every case being submitted gets its billing-submit job back: queue.ts requeue)
    // (and every BILLING_REQUEUE_INTERVAL_MS after, so jobs lost with Redis's data come back without a restart)
    startConsumers: async () => {
      const requeue = () =>
        Promise.all([
          submission
            .requeue()
            .catch((err: Error) =>
              ctx.logger.warn({ err: err.message }, 'billing submissions not re-queued'),
            ),
          documents
            .requeue()
            .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'claim documents not re-queued')),
        ]);
      await requeue();
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        void requeue().finally(() => {
          running = false;
        });
      }, ctx.config.BILLING_REQUEUE_INTERVAL_MS);
      timer.unref();
      const consumers = await startBillingConsumers(ctx, models);
      // not awaited: a process starting while Redis is away puts the scheduler in place when Redis is back
      void statusFeed
        .schedule()
        .catch((err: Error) => ctx.logger.warn({ err: err.message }, 'billing status feed not scheduled'));
      return {
        stop: async () => {
          clearInterval(timer);
          await consumers.stop();
        },
      };
    },
    // the gateway client's idle keep-alive connections, once the workers have stopped
    stop: async () => {
      submission.close();
      documents.close();
    },
    dashboard: (user, range) => billingDashboard(models, user, range),
    areas: {
      bis: async (app) => {
        await app.register(billingCaseRoutes, { models });
        await app.register(billingActionRoutes, { models, documents });
        await app.register(billingSubmitRoutes, {
          models,
          queue: submission,
          catalog: opts.diagnosisCodes,
        });
      },
    },
  };
}
