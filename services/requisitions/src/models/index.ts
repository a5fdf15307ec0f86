import type { Connection } from 'mongoose';
import { attachmentModel } from './attachment';
import { counterModel } from './counter';
import { generatedDocumentModel } from './generated-document';
import { requisitionModel } from './requisition';
import { timelineModel } from './timeline';

export * from './requisition';
export * from './attachment';
export * from './counter';
export * from './generated-document';
export * from './timeline';

/** The requisitions service's models, registered once per connection. */
export function requisitionModels(conn: Connection) {
  return {
    Requisition: requisitionModel(conn),
    Attachment: attachmentModel(conn),
    Counter: counterModel(conn),
    GeneratedDocument: generatedDocumentModel(conn),
    TimelineEntry: timelineModel(conn),
  };
}
export type RequisitionModels = ReturnType<typeof requisitionModels>;
