import type { Connection } from 'mongoose';
import { sampleGroupModel, sampleModel } from './sample';
import { testOrderModel } from './test-order';
import { labRequisitionModel } from './lab-requisition';

export * from './test-order';
export * from './sample';
export * from './lab-requisition';

/** The lab service's models, registered once per connection. */
export function labModels(conn: Connection) {
  return {
    TestOrder: testOrderModel(conn),
    Sample: sampleModel(conn),
    SampleGroup: sampleGroupModel(conn),
    LabRequisition: labRequisitionModel(conn),
  };
}
export type LabModels = ReturnType<typeof labModels>;
