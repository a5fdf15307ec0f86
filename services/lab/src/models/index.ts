import type { Connection } from 'mongoose';
import { sampleGroupModel, sampleModel } from './sample';
import { testOrderModel } from './test-order';
import { labRequisitionModel } from './lab-requisition';
import { domainPreferenceModel } from './domain-preference';
import { pendingReportModel } from './pending-report';

export * from './test-order';
export * from './sample';
export * from './lab-requisition';
export * from './domain-preference';
export * from './pending-report';

/** The lab service's models, registered once per connection. */
export function labModels(conn: Connection) {
  return {
    TestOrder: testOrderModel(conn),
    Sample: sampleModel(conn),
    SampleGroup: sampleGroupModel(conn),
    LabRequisition: labRequisitionModel(conn),
    DomainPreference: domainPreferenceModel(conn),
    PendingReport: pendingReportModel(conn),
  };
}
export type LabModels = ReturnType<typeof labModels>;
