import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  listQuerystring,
  listRoutes,
  parseListQuery,
  requireUser,
  toApi,
  type ListQuery,
  type SessionUser,
  typed,
} from '@onco/platform';
import { messageForUser, messagesResource, messagesScope, readFor, unreadFor } from '../resource';
import { countUnreadThreads, type MessagesDeps } from '../use-cases';

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

/** The messages list (spec 2 sections 2.11 and 7 "Messages") and its unread count: /cns/api/v1/messages. */
export async function messageRoutes(app: FastifyInstance, opts: MessagesDeps) {
  const r = typed(app);

  listRoutes(app, {
    path: '/messages',
    resource: messagesResource,
    model: opts.models.Message,
    permission: 'VIEW_MESSAGES_PAGE',
    scope: (user, query) => {
      const read = takeReadFilter(user, query);
      return read ? { $and: [messagesScope(user), read] } : messagesScope(user);
    },
    map: (doc, user) => toApi(messageForUser(doc as { read?: boolean; readers?: string[] }, user.id)),
    tag: 'messages',
    noun: 'messages and comments',
    // each page served names its threads' patients in the audit trail
    audit: { record: 'message', patientOf: (row) => row.patient?.id },
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
      return { unreadMessages: await countUnreadThreads(opts, user, query) };
    },
  );
}
