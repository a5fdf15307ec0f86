import type { DomainModule, PlatformContext } from '@onco/platform';
import { billingModels, type BillingModels } from './models';
import { billingCaseRoutes } from './routes/billing-cases';
import { billingDashboard } from './dashboard';

export type BillingModule = DomainModule & { models: BillingModels };

/**
 * The billing service: billing cases (billing_cases carries pending events), submitted to XIFIN by workers
 * in a later issue. Mounted in the billing area (/bis/api/v1).
 */
export function createBillingModule(ctx: PlatformContext): BillingModule {
  const models = billingModels(ctx.mongo);
  return {
    name: 'billing',
    models,
    outboxCollections: ['billing_cases'],
    dashboard: (user, range) => billingDashboard(models, user, range),
    areas: {
      bis: async (app) => {
        await app.register(billingCaseRoutes, { models });
      },
    },
  };
}
