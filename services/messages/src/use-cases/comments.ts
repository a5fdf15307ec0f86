import {
  badRequest,
  can,
  forbidden,
  notFound,
  runList,
  toApi,
  type ListQuery,
  type SessionUser,
} from '@onco/platform';
import type { MessageDoc, RequisitionScopeDoc } from '../models';
import { commentsResource, inScope } from '../resource';
import type { MessagesDeps } from './deps';

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

/** What a new comment (or a reply to one) says (POST /comments); the route's schema bounds the lengths. */
export interface CommentInput {
  messageBody: string;
  subject?: string | null;
  /** the requisition; `testOrderFormId` is accepted too */
  testOrderForm?: { id: string } | null;
  testOrderFormId?: string | null;
  /** a reply to a comment */
  parent?: { id: string } | null;
}

/** The requisition's projected scope, or 404 when unknown (not yet submitted/projected) or out of scope. */
async function requisitionFor(
  { models }: MessagesDeps,
  user: SessionUser,
  id: string,
): Promise<RequisitionScopeDoc> {
  const rs = await models.RequisitionScope.findById(id).lean().exec();
  if (!rs || !inScope(user, rs)) throw notFound(COMMENT_MSG.requisitionNotFound);
  return rs;
}

/** Non-deleted replies of the given comments, oldest first, as `messageThreads`. */
async function withThreads({ models }: MessagesDeps, rows: Array<Record<string, any>>) {
  if (!rows.length) return rows;
  const replies = await models.Message.find(
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

/**
 * The comments of one requisition in the user's scope (all of them with CAN_CREATE_FEED, else the user's own),
 * each parent with its replies.
 */
export async function listComments(
  deps: MessagesDeps,
  user: SessionUser,
  requisitionId: string,
  query: ListQuery,
) {
  const rs = await requisitionFor(deps, user, requisitionId);
  const scope: Record<string, unknown> = { comment: true, 'testOrderForm.id': rs._id };
  if (!can(user, 'CAN_CREATE_FEED')) scope.createdBy = user.id;
  const result = await runList<Record<string, any>>(deps.models.Message, commentsResource, query, scope);
  return { ...result, content: await withThreads(deps, result.content) };
}

/**
 * A comment, or a reply to one, on a submitted requisition: FEED_COMMENT with CAN_CREATE_FEED, otherwise
 * CASE_COMMENT. A reply moves its thread's latest reply time forward.
 */
export async function addComment(deps: MessagesDeps, user: SessionUser, input: CommentInput) {
  const { Message } = deps.models;
  const text = input.messageBody.trim();
  if (!text) throw badRequest(COMMENT_MSG.textRequired, { field: 'messageBody' });
  const tofId = input.testOrderForm?.id ?? input.testOrderFormId;
  if (!tofId) throw badRequest(COMMENT_MSG.testOrderFormRequired, { field: 'testOrderForm.id' });
  const rs = await requisitionFor(deps, user, tofId);
  let parent: MessageDoc | null = null;
  if (input.parent?.id) {
    parent = await Message.findOne({
      _id: input.parent.id,
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
    subject: input.subject ?? null,
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
  if (parent) await Message.updateOne({ _id: parent._id }, { $max: { lastMessageCreatedOn: now } }).exec();
  return created.toObject();
}

/** The soft delete of a comment: by its owner, when it has no action type; out of scope reads as not found. */
export async function deleteComment({ models }: MessagesDeps, user: SessionUser, id: string) {
  const { Message, RequisitionScope } = models;
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
  return updated;
}
