import type { Connection } from 'mongoose';
import { sampleGroupModel, sampleModel } from './sample';
import { testOrderModel } from './test-order';
import { labRequisitionModel } from './lab-requisition';
import { domainPreferenceModel } from './domain-preference';
import { pendingReportModel } from './pending-report';
import { sampleManifestContentModel, sampleManifestModel } from './sample-manifest';
import { barcodeCounterModel, barcodeModel } from './barcode';

export * from './test-order';
export * from './sample';
export * from './lab-requisition';
export * from './domain-preference';
export * from './pending-report';
export * from './sample-manifest';
export * from './barcode';

/** The lab service's models, registered once per connection. */
export function labModels(conn: Connection) {
  return {
    TestOrder: testOrderModel(conn),
    Sample: sampleModel(conn),
    SampleGroup: sampleGroupModel(conn),
    LabRequisition: labRequisitionModel(conn),
    DomainPreference: domainPreferenceModel(conn),
    PendingReport: pendingReportModel(conn),
    SampleManifest: sampleManifestModel(conn),
    SampleManifestContent: sampleManifestContentModel(conn),
    Barcode: barcodeModel(conn),
    BarcodeCounter: barcodeCounterModel(conn),
  };
}
export type LabModels = ReturnType<typeof labModels>;
