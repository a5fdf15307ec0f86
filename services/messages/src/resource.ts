import { scopeFilter, type ListResource, type SessionUser } from '@onco/platform';
import type { RequisitionScopeDoc } from './models';

/**
 * The messages module's list resources and data-scope rules: shared by the routes, the use cases and the
 * dashboard (as requisitions' resource.ts is).
 */

/** The messages list (spec 2 sections 2.11 and 7 "Messages"): /cns/api/v1/messages. */
export const messagesResource: ListResource = {
  name: 'messages',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    isParent: { type: 'boolean', filter: true },
    read: { type: 'boolean', filter: true, sort: true },
    new: { type: 'boolean', filter: true },
    type: { type: 'string', filter: true, sort: true },
    subject: { type: 'string', filter: true, sort: true },
    createdBy: { type: 'id', filter: true },
    ownerId: { type: 'id', path: 'owner.id', filter: true },
    parentId: { type: 'id', path: 'parent.id', filter: true },
    testOrderFormId: { type: 'id', path: 'testOrderForm.id', filter: true },
    testRequisitionId: { type: 'string', path: 'testOrderForm.testRequisitionId', filter: true, sort: true },
    patientId: { type: 'id', path: 'patient.id', filter: true },
    patientName: { type: 'string', path: 'patient.name', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    lastMessageCreatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['subject', 'messageBody', 'testOrderForm.testRequisitionId', 'patient.name'],
  defaultSort: { field: 'lastMessageCreatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/** Comments of a requisition (spec 2 sections 2.12 and 7 "Messages"): /cns/api/v1/comments. */
export const commentsResource: ListResource = {
  name: 'comments',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    testOrderFormId: { type: 'id', path: 'testOrderForm.id', filter: true },
    isParent: { type: 'boolean', filter: true },
    createdBy: { type: 'id', filter: true },
    type: { type: 'string', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    lastMessageCreatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['messageBody', 'subject'],
  defaultSort: { field: 'createdOn', order: 'desc' },
  defaultPerPage: 30,
  deletedField: 'deleted',
};

/**
 * A user sees messages of their accounts and the ones they own; staff with VIEW_ALL_ACCOUNTS see all.
 * Comments on requisitions live in the same collection but are not messages: they are listed by /comments.
 */
export const messagesScope = (user: SessionUser): Record<string, unknown> => {
  const scope = scopeFilter(user, { account: 'account.id', owner: 'owner.id' });
  const notComment = { comment: { $ne: true } };
  return Object.keys(scope).length ? { $and: [scope, notComment] } : notComment;
};

/**
 * Read state is per side of a thread: a thread is unread for a user when it is not marked read AND the user is not
 * among its `readers` (the writer of its latest message is; PATCH adds whoever opens it and marks it read; a reply
 * resets both). So a message one sends is never "new" for oneself, and it is for the other side.
 */
export const unreadFor = (userId: string) => ({ read: { $ne: true }, readers: { $ne: userId } });
export const readFor = (userId: string) => ({ $or: [{ read: true }, { readers: userId }] });
/** Unread message threads of a user (communicationCount and the dashboard's unreadMessages). */
export const UNREAD_THREADS = (userId: string) => ({ isParent: true, ...unreadFor(userId) });

/** A message as the list shows it to this user: `read` and `new` for the user's side of the thread. */
export function messageForUser<T extends { read?: boolean; readers?: string[] }>(doc: T, userId: string) {
  const read = doc.read === true || (doc.readers ?? []).includes(userId);
  return { ...doc, read, new: !read };
}

/** Whether a projected requisition is in the user's data scope (the same rule as scopeFilter). */
export function inScope(
  user: SessionUser,
  r: Pick<RequisitionScopeDoc, 'accountId' | 'physicianId'>,
): boolean {
  return (
    user.allAccounts || user.accountIds.includes(r.accountId) || user.physicianIds.includes(r.physicianId)
  );
}
