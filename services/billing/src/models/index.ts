import type { Connection } from 'mongoose';
import { billingCaseModel } from './billing-case';
import { billingRequisitionModel } from './billing-requisition';
import { billingSpecialistModel } from './billing-specialist';

export * from './billing-case';
export * from './billing-requisition';
export * from './billing-specialist';

/** The billing service's models, registered once per connection. */
export function billingModels(conn: Connection) {
  return {
    BillingCase: billingCaseModel(conn),
    BillingRequisition: billingRequisitionModel(conn),
    BillingSpecialist: billingSpecialistModel(conn),
  };
}
export type BillingModels = ReturnType<typeof billingModels>;
