import type { Connection } from 'mongoose';
import { kitRequestModel, messageModel, requisitionScopeModel } from './message';

export * from './message';

/** The messages service's models, registered once per connection. */
export function messagesModels(conn: Connection) {
  return {
    Message: messageModel(conn),
    KitRequest: kitRequestModel(conn),
    RequisitionScope: requisitionScopeModel(conn),
  };
}
export type MessagesModels = ReturnType<typeof messagesModels>;
