import type { Connection } from 'mongoose';
import { attachmentModel } from './attachment';
import { counterModel } from './counter';
import { generatedDocumentModel } from './generated-document';
import { requisitionModel } from './requisition';

export * from './requisition';
export * from './attachment';
export * from './counter';
export * from './generated-document';

/** The requisitions service's models, registered once per connection. */
export function requisitionModels(conn: Connection) {
  return {
    Requisition: requisitionModel(conn),
    Attachment: attachmentModel(conn),
    Counter: counterModel(conn),
    GeneratedDocument: generatedDocumentModel(conn),
  };
}
export type RequisitionModels = ReturnType<typeof requisitionModels>;
