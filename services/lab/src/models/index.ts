import type { Connection } from 'mongoose';
import { sampleGroupModel, sampleModel } from './sample';
import { testOrderModel } from './test-order';

export * from './test-order';
export * from './sample';

/** The lab service's models, registered once per connection. */
export function labModels(conn: Connection) {
  return { TestOrder: testOrderModel(conn), Sample: sampleModel(conn), SampleGroup: sampleGroupModel(conn) };
}
export type LabModels = ReturnType<typeof labModels>;
