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

/** Unread message threads in the user's scope (communicationCount and the dashboard's unreadMessages). */
export const UNREAD_THREADS = { isParent: true, read: { $ne: true } } as const;

export async function messageRoutes(app: FastifyInstance, opts: { models: MessagesModels }) {
  const r = typed(app);
  const { Message } = opts.models;

  listRoutes(app, {
    path: '/messages',
    resource: messagesResource,
    model: Message,
    permission: 'VIEW_MESSAGES_PAGE',
    scope: (user) => messagesScope(user),
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
      const unread = UNREAD_THREADS;
      const unreadMessages = await Message.countDocuments(
        Object.keys(match).length ? { $and: [match, unread] } : unread,
      ).exec();
      return { unreadMessages };
    },
  );
}
