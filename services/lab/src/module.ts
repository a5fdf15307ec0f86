import type { DomainModule, PlatformContext } from '@onco/platform';
import { labModels, type LabModels } from './models';
import { testOrderRoutes } from './routes/test-orders';
import { sampleRoutes } from './routes/samples';
import { sampleReviewAccount } from './sample-service';
import { reportRoutes } from './routes/reports';
import { startLabConsumers } from './consumers/requisition-submitted';
import { labDashboard } from './dashboard';

export type LabModule = DomainModule & { models: LabModels };

/**
 * The lab service: test orders, samples and sample groups (test_orders and samples carry pending events).
 * Mounted in the orders area (/oms/api/v1). Its requisition-submitted consumer creates the test orders; it
 * contributes the test counters and the recently completed tests to the home dashboard.
 */
export function createLabModule(ctx: PlatformContext): LabModule {
  const models = labModels(ctx.mongo);
  return {
    name: 'lab',
    models,
    outboxCollections: ['test_orders', 'samples'],
    startConsumers: () => startLabConsumers(ctx, models),
    dashboard: (user, range) => labDashboard(models, user, range),
    areas: {
      oms: async (app) => {
        await app.register(testOrderRoutes, { models });
        await app.register(sampleRoutes, { models, reviewAccountId: sampleReviewAccount(ctx.config) });
        await app.register(reportRoutes, { models });
      },
    },
  };
}
