import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  badRequest,
  can,
  errorReplies,
  forbidden,
  listQuerystring,
  listReply,
  notFound,
  parseListQuery,
  requireUser,
  runList,
  sendList,
  toApi,
  typed,
  updateByIdRoute,
  type ListResource,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import type { Permission } from '@onco/domain';
import type { MessageDoc, MessagesModels, RequisitionScopeDoc } from '../models';

/** Messages of the comment routes (the spec gives no wording for these). */
export const COMMENT_MSG = {
  requisitionNotFound: 'Requisition not found',
  commentNotFound: 'Comment not found',
  textRequired: 'Comment text is required',
  testOrderFormRequired: 'Filter testOrderFormId is required',
  onlyDelete: 'Only deleting a comment is supported: send deleted true',
  notAComment: 'Only comments can be deleted',
  notOwner: 'Only the owner of a comment can delete it',
  hasAction: 'A comment with an action cannot be deleted',
} as const;

export const COMMENT_MAX_LENGTH = 10_000;

/** The comment panel is on the order summary (VIEW_ORDER_PAGE); docs/decisions.md "Comments". */
export const COMMENT_PERMISSION: Permission = 'VIEW_ORDER_PAGE';

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

/** Whether a projected requisition is in the user's data scope (the same rule as scopeFilter). */
export function inScope(
  user: SessionUser,
  r: Pick<RequisitionScopeDoc, 'accountId' | 'physicianId'>,
): boolean {
  return (
    user.allAccounts || user.accountIds.includes(r.accountId) || user.physicianIds.includes(r.physicianId)
  );
}

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

export async function commentRoutes(
  app: FastifyInstance,
  opts: { models: MessagesModels; ctx: PlatformContext },
) {
  registerCommentListRoute(app, opts.models);
  registerCommentCreateRoute(app, opts.models);
  registerCommentDeleteRoute(app, opts.models);
}

/** The requisition's projected scope, or 404 when unknown (not yet submitted/projected) or out of scope. */
async function requisitionFor(
  { RequisitionScope }: MessagesModels,
  user: SessionUser,
  id: string,
): Promise<RequisitionScopeDoc> {
  const rs = await RequisitionScope.findById(id).lean().exec();
  if (!rs || !inScope(user, rs)) throw notFound(COMMENT_MSG.requisitionNotFound);
  return rs;
}

/** Non-deleted replies of the given comments, oldest first, as `messageThreads`. */
async function withThreads({ Message }: MessagesModels, rows: Array<Record<string, any>>) {
  if (!rows.length) return rows;
  const replies = await Message.find(
    { comment: true, isParent: false, deleted: { $ne: true }, 'parent.id': { $in: rows.map((x) => x.id) } },
    { outbox: 0 },
  )
    .sort({ createdOn: 1, _id: 1 })
    .lean()
    .exec();
  return rows.map((row) => ({
    ...row,
    messageThreads: row.isParent ? replies.filter((x) => x.parent?.id === row.id).map((x) => toApi(x)) : [],
  }));
}

/** GET /comments: the comments of one requisition (all of them with CAN_CREATE_FEED, else the user's own). */
function registerCommentListRoute(app: FastifyInstance, models: MessagesModels) {
  typed(app).get(
    '/comments',
    {
      config: { permission: COMMENT_PERMISSION },
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
      const rs = await requisitionFor(models, user, String(tof.values[0]));
      const scope: Record<string, unknown> = { comment: true, 'testOrderForm.id': rs._id };
      if (!can(user, 'CAN_CREATE_FEED')) scope.createdBy = user.id;
      const result = await runList<Record<string, any>>(models.Message, commentsResource, query, scope);
      return sendList(reply, commentsResource, query, {
        ...result,
        content: await withThreads(models, result.content),
      });
    },
  );
}

/** POST /comments: a comment, or a reply to one, on a submitted requisition. */
function registerCommentCreateRoute(app: FastifyInstance, models: MessagesModels) {
  const { Message } = models;
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
      const body = req.body;
      const text = body.messageBody.trim();
      if (!text) throw badRequest(COMMENT_MSG.textRequired, { field: 'messageBody' });
      const tofId = body.testOrderForm?.id ?? body.testOrderFormId;
      if (!tofId) throw badRequest(COMMENT_MSG.testOrderFormRequired, { field: 'testOrderForm.id' });
      const rs = await requisitionFor(models, user, tofId);
      let parent: MessageDoc | null = null;
      if (body.parent?.id) {
        parent = await Message.findOne({
          _id: body.parent.id,
          comment: true,
          isParent: true,
          deleted: { $ne: true },
          'testOrderForm.id': rs._id,
        })
          .lean()
          .exec();
        if (!parent) throw notFound(COMMENT_MSG.commentNotFound);
      }
      const now = new Date();
      const created = await Message.create({
        subject: body.subject ?? null,
        messageBody: text,
        isParent: !parent,
        type: can(user, 'CAN_CREATE_FEED') ? 'FEED_COMMENT' : 'CASE_COMMENT',
        read: false,
        new: true,
        owner: { id: user.id, firstName: user.firstName, lastName: user.lastName },
        lastMessageCreatedOn: now,
        parent: parent ? { id: parent._id, sfdcId: parent.sfdcId } : null,
        testOrderForm: { id: rs._id, testRequisitionId: rs.testRequisitionId },
        patient: { id: rs.patientId, name: null },
        account: { id: rs.accountId, name: null },
        comment: true,
        createdOn: now,
        createdBy: user.id,
        updatedOn: now,
        updatedBy: user.id,
      });
      // the thread's latest reply time only moves forward ($max: replies landing at once never move it back)
      if (parent)
        await Message.updateOne({ _id: parent._id }, { $max: { lastMessageCreatedOn: now } }).exec();
      reply.status(201);
      return toApi(created.toObject());
    },
  );
}

/** PUT /messages/:id: only the soft delete of a comment, by its owner, when it has no action type. */
function registerCommentDeleteRoute(app: FastifyInstance, { Message, RequisitionScope }: MessagesModels) {
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
      const msg = await Message.findOne({ _id: id, deleted: { $ne: true } })
        .lean()
        .exec();
      if (!msg) throw notFound(COMMENT_MSG.commentNotFound);
      if (!msg.comment) throw badRequest(COMMENT_MSG.notAComment);
      // out of the user's scope reads as not found (docs/decisions.md "Data scope")
      const rs = msg.testOrderForm?.id
        ? await RequisitionScope.findById(msg.testOrderForm.id).lean().exec()
        : null;
      if (!rs || !inScope(user, rs)) throw notFound(COMMENT_MSG.commentNotFound);
      const owner = msg.owner?.id ?? msg.createdBy;
      if (owner !== user.id) throw forbidden(COMMENT_MSG.notOwner);
      if (msg.actionType) throw forbidden(COMMENT_MSG.hasAction);
      // conditional on what was checked: not deleted yet (a second delete at once is a 404), no action type
      const updated = await Message.findOneAndUpdate(
        { _id: id, deleted: { $ne: true }, actionType: msg.actionType ?? null },
        { $set: { deleted: true, updatedOn: new Date(), updatedBy: user.id }, $inc: { version: 1 } },
        { returnDocument: 'after' },
      )
        .lean()
        .exec();
      if (!updated) throw notFound(COMMENT_MSG.commentNotFound);
      return toApi(updated);
    },
  });
}
