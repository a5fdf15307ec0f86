import { API } from '@onco/domain';

/** The messages' path on the communications service. */
export const CNS = `${API.cns}/messages`;

export interface MessageRow {
  id: string;
  subject: string | null;
  messageBody: string | null;
  read: boolean;
  new: boolean;
  owner: { id: string | null; firstName: string | null; lastName: string | null } | null;
  testOrderForm: { id: string | null; testRequisitionId: string | null } | null;
  patient: { id: string | null; name: string | null } | null;
  createdOn: string;
  lastMessageCreatedOn: string | null;
}
export interface Thread extends MessageRow {
  messageThreads: MessageRow[];
}

/** The server's message of a failed call, else `fallback`. */
export const serverMessage = (e: unknown, fallback: string) =>
  (e as { body?: { message?: string } })?.body?.message || fallback;
