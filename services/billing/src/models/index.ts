import type { Connection } from 'mongoose';
import { billingCaseModel } from './billing-case';

export * from './billing-case';

/** The billing service's models, registered once per connection. */
export function billingModels(conn: Connection) {
  return { BillingCase: billingCaseModel(conn) };
}
export type BillingModels = ReturnType<typeof billingModels>;
