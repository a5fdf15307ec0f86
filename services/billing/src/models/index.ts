import type { Connection } from 'mongoose';
import { billingCaseModel } from './billing-case';
import { billingFeedCursorModel, billingFeedSkipModel } from './billing-feed';
import { billingRequisitionModel } from './billing-requisition';
import { billingSpecialistModel } from './billing-specialist';

export * from './billing-case';
export * from './billing-feed';
export * from './billing-requisition';
export * from './billing-specialist';

/** The billing service's models, registered once per connection. */
export function billingModels(conn: Connection) {
  return {
    BillingCase: billingCaseModel(conn),
    BillingRequisition: billingRequisitionModel(conn),
    BillingSpecialist: billingSpecialistModel(conn),
    BillingFeedCursor: billingFeedCursorModel(conn),
    BillingFeedSkip: billingFeedSkipModel(conn),
  };
}
export type BillingModels = ReturnType<typeof billingModels>;
