import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  buildMatch,
  listQuerystring,
  type ListResource,
  listRoutes,
  parseListQuery,
  requireUser,
  scopeFilter,
  toApi,
  type ListQuery,
  type SessionUser,
  typed,
} from '@onco/platform';
import type { MessagesModels } from '../models';

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

/**
 * The list's `read` filter in the user's terms (unreadFor / readFor): taken out of the parsed query and returned
 * as a condition for the scope, so NEW lists what is new for the caller and READ what the caller has read.
 */
function takeReadFilter(user: SessionUser, query: ListQuery): Record<string, unknown> | null {
  const i = query.filters.findIndex((f) => f.path === 'read' && f.op === 'eq');
  if (i < 0) return null;
  const [f] = query.filters.splice(i, 1);
  const wantRead = f.values[0] === true || f.values[0] === 'true';
  return wantRead ? readFor(user.id) : unreadFor(user.id);
}

export async function messageRoutes(app: FastifyInstance, opts: { models: MessagesModels }) {
  const r = typed(app);
  const { Message } = opts.models;

  listRoutes(app, {
    path: '/messages',
    resource: messagesResource,
    model: Message,
    permission: 'VIEW_MESSAGES_PAGE',
    scope: (user, query) => {
      const read = takeReadFilter(user, query);
      return read ? { $and: [messagesScope(user), read] } : messagesScope(user);
    },
    map: (doc, user) => toApi(messageForUser(doc as { read?: boolean; readers?: string[] }, user.id)),
    tag: 'messages',
    noun: 'messages and comments',
  });

  r.get(
    '/messages/communicationCount',
    {
      config: { permission: 'VIEW_MESSAGES_PAGE' },
      schema: {
        tags: ['messages'],
        summary: 'Unread message threads in the user scope (optionally narrowed by filter)',
        querystring: listQuerystring,
        response: { 200: z.object({ unreadMessages: z.number().int() }) },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const query = parseListQuery(messagesResource, req.query as Record<string, unknown>);
      const match = buildMatch(messagesResource, query, messagesScope(user));
      const unread = UNREAD_THREADS(user.id);
      const unreadMessages = await Message.countDocuments(
        Object.keys(match).length ? { $and: [match, unread] } : unread,
      ).exec();
      return { unreadMessages };
    },
  );
}
