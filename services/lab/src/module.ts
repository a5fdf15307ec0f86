import type { DomainModule, PlatformContext } from '@onco/platform';
import { labModels, type LabModels } from './models';
import { testOrderRoutes } from './routes/test-orders';

export type LabModule = DomainModule & { models: LabModels };

/**
 * The lab service: test orders, samples and sample groups (test_orders and samples carry pending events).
 * Mounted in the orders area (/oms/api/v1). Consumers and the remaining routes come with later issues.
 */
export function createLabModule(ctx: PlatformContext): LabModule {
  const models = labModels(ctx.mongo);
  return {
    name: 'lab',
    models,
    outboxCollections: ['test_orders', 'samples'],
    areas: {
      oms: async (app) => {
        await app.register(testOrderRoutes, { models });
      },
    },
  };
}
