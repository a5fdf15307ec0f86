import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  auditSubject,
  badRequest,
  errorReplies,
  listQuerystring,
  listReply,
  listSubject,
  parseListQuery,
  requireUser,
  sendList,
  toApi,
  typed,
  updateByIdRoute,
} from '@onco/platform';
import type { Permission } from '@onco/domain';
import { commentsResource } from '../resource';
import { addComment, COMMENT_MSG, deleteComment, listComments, type MessagesDeps } from '../use-cases';

export const COMMENT_MAX_LENGTH = 10_000;

/** The comment panel is on the order summary (VIEW_ORDER_PAGE); docs/decisions.md "Comments". */
export const COMMENT_PERMISSION: Permission = 'VIEW_ORDER_PAGE';

const commentRow = z.looseObject({ id: z.string() });

const createBody = z.object({
  messageBody: z.string().max(COMMENT_MAX_LENGTH),
  subject: z.string().max(500).nullish(),
  /** the requisition; `testOrderFormId` is accepted too */
  testOrderForm: z.object({ id: z.string().min(1).max(64) }).nullish(),
  testOrderFormId: z.string().min(1).max(64).nullish(),
  /** a reply to a comment */
  parent: z.object({ id: z.string().min(1).max(64) }).nullish(),
});

/** The comments of a requisition (spec 2 sections 2.12 and 7 "Messages"): list, add, delete; use-cases/comments.ts. */
export async function commentRoutes(app: FastifyInstance, opts: MessagesDeps) {
  registerCommentListRoute(app, opts);
  registerCommentCreateRoute(app, opts);
  registerCommentDeleteRoute(app, opts);
}

/** GET /comments: the comments of one requisition (all of them with CAN_CREATE_FEED, else the user's own). */
function registerCommentListRoute(app: FastifyInstance, opts: MessagesDeps) {
  typed(app).get(
    '/comments',
    {
      // a page of a requisition's comments: a read naming the patients they are about
      config: {
        permission: COMMENT_PERMISSION,
        audit: { record: 'comment', subject: listSubject((row) => row.patient?.id) },
      },
      schema: {
        tags: ['comments'],
        summary:
          'Comments of a requisition (filter testOrderFormId required; isParent, createdBy optional). ' +
          'Without CAN_CREATE_FEED only the user’s own comments are listed.',
        querystring: listQuerystring,
        response: { 200: listReply(commentRow), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const query = parseListQuery(commentsResource, req.query as Record<string, unknown>);
      const tof = query.filters.find((f) => f.field === 'testOrderFormId');
      if (!tof || tof.op !== 'eq')
        throw badRequest(COMMENT_MSG.testOrderFormRequired, { field: 'testOrderFormId' });
      // the entry's record: the requisition the comments are on
      auditSubject(req, { id: String(tof.values[0]) });
      const result = await listComments(opts, user, String(tof.values[0]), query);
      return sendList(reply, commentsResource, query, result);
    },
  );
}

/** POST /comments: a comment, or a reply to one, on a submitted requisition. */
function registerCommentCreateRoute(app: FastifyInstance, opts: MessagesDeps) {
  typed(app).post(
    '/comments',
    {
      config: { permission: COMMENT_PERMISSION },
      schema: {
        tags: ['comments'],
        summary:
          'Add a comment (or a reply with parent.id) to a submitted requisition: FEED_COMMENT with ' +
          'CAN_CREATE_FEED, otherwise CASE_COMMENT',
        body: createBody,
        response: { 201: commentRow, ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const created = await addComment(opts, user, req.body);
      reply.status(201);
      return toApi(created);
    },
  );
}

/** PUT /messages/:id: only the soft delete of a comment, by its owner, when it has no action type. */
function registerCommentDeleteRoute(app: FastifyInstance, opts: MessagesDeps) {
  updateByIdRoute(app, {
    path: '/messages/:id',
    permission: COMMENT_PERMISSION,
    tag: 'comments',
    summary:
      'Update a message: only { deleted: true } on a comment, by its owner, when it has no action type ' +
      '(a soft delete)',
    body: z.looseObject({ deleted: z.boolean().optional() }),
    reply: commentRow,
    update: async (user, id, body) => {
      if (body.deleted !== true) throw badRequest(COMMENT_MSG.onlyDelete, { field: 'deleted' });
      return toApi(await deleteComment(opts, user, id));
    },
  });
}
