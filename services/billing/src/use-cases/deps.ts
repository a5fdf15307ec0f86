import type { BillingModels } from '../models';

/** What every use case of billing takes first, as requisitions' take RequisitionDeps: its models. */
export interface BillingDeps {
  models: BillingModels;
}
