import { z } from 'zod';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import {
  badRequest,
  dateOut,
  errorReplies,
  forbidden,
  getByIdRoute,
  idParams,
  newId,
  notFound,
  requireUser,
  typed,
  type SessionUser,
} from '@onco/platform';
import type { MessageDoc, MessagesModels } from '../models';
import { messageForUser, messagesScope } from './messages';

/** Texts of the messages screen the server answers with (spec 2 section 8). */
export const MESSAGE_SENT =
  'Your message has been successfully sent. Please allow up to 24 hours for us to respond to your message.';
export const SUBJECT_MAX = 200;
/** A message and a reply hold at most 512 characters (spec 2 sections 5 and 9). */
export const BODY_MAX = 512;

const ref = z.object({ id: z.string().min(1).max(200), name: z.string().max(300).nullish() }).nullish();
const createBody = z.object({
  subject: z.string().max(SUBJECT_MAX).nullish(),
  messageBody: z.string().max(BODY_MAX).nullish(),
  type: z.enum(['CASE', 'CASE_COMMENT']).nullish(),
  isParent: z.boolean().nullish(),
  parent: z.object({ id: z.string().min(1).max(200), sfdcId: z.string().max(200).nullish() }).nullish(),
  testOrderForm: z
    .object({ id: z.string().min(1).max(200), testRequisitionId: z.string().max(200).nullish() })
    .nullish(),
  patient: ref,
  hospitalLocation: ref,
  account: ref,
});

const person = z.object({
  id: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
const messageOut = z.object({
  id: z.string(),
  subject: z.string().nullable(),
  messageBody: z.string().nullable(),
  isParent: z.boolean(),
  type: z.string(),
  read: z.boolean(),
  new: z.boolean(),
  owner: person.nullable(),
  parent: z.object({ id: z.string().nullable(), sfdcId: z.string().nullable() }).nullable(),
  testOrderForm: z.object({ id: z.string().nullable(), testRequisitionId: z.string().nullable() }).nullable(),
  patient: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  hospitalLocation: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  account: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  activityType: z.string().nullable(),
  createdOn: dateOut,
  lastMessageCreatedOn: dateOut.nullable(),
});
const threadOut = messageOut.extend({ messageThreads: z.array(messageOut) });

const toApi = (d: MessageDoc): z.infer<typeof messageOut> => ({
  id: d._id,
  subject: d.subject,
  messageBody: d.messageBody,
  isParent: d.isParent,
  type: d.type,
  read: d.read,
  new: d.new,
  owner: d.owner,
  parent: d.parent,
  testOrderForm: d.testOrderForm,
  patient: d.patient,
  hospitalLocation: d.hospitalLocation,
  account: d.account,
  activityType: d.activityType ?? null,
  createdOn: d.createdOn,
  lastMessageCreatedOn: d.lastMessageCreatedOn,
});

/**
 * Message threads (spec 2 sections 2.11, 3 "Message/comment", 7 "Messages"; issue 15), in the cns area:
 *
 *   GET   /messages/{id}             a thread: the parent message with its replies (messageThreads, oldest first)
 *   POST  /messages                  a new thread (type CASE) or a reply (type CASE_COMMENT with parent)
 *   PATCH /messages/{id}             mark the thread read (opening an unread message; not by its last writer)
 *   PUT   /messages/{id}/addReader   record that the caller opened it
 *
 * Who reads a thread: its parties (the owner and the users of its account) and client services (staff with every
 * account), i.e. the list's scope; anything else is a 404. A reply makes the thread new again for the other side
 * and moves it up the list (lastMessageCreatedOn).
 */
export async function threadRoutes(app: FastifyInstance, opts: { models: MessagesModels }) {
  const r = typed(app);
  const { models } = opts;
  const { Message } = models;

  getByIdRoute(app, {
    path: '/messages/:id',
    permission: 'VIEW_MESSAGES_PAGE',
    tag: 'messages',
    summary: 'A message thread with its replies',
    reply: threadOut,
    errorReplies: true,
    load: async (user, id) => {
      const parent = await findThread(models, user, id);
      // replies of a thread: index { 'parent.id': 1 } (models/message.ts)
      const replies = await Message.find({ 'parent.id': parent._id, deleted: { $ne: true } })
        .sort({ createdOn: 1, _id: 1 })
        .lean<MessageDoc[]>()
        .exec();
      return { ...toApi(messageForUser(parent, user.id)), messageThreads: replies.map(toApi) };
    },
  });

  r.post(
    '/messages',
    {
      config: { permission: 'VIEW_MESSAGES_PAGE' },
      schema: {
        tags: ['messages'],
        summary: 'Send a new message to client services, or reply in a thread',
        description:
          'A new thread: subject and messageBody required; testOrderForm, patient, hospitalLocation pre-filled when ' +
          "sent from an order; account one of the caller's (a caller with one account may leave it out). A reply: " +
          'type CASE_COMMENT with parent.id of a thread the caller may read, and messageBody. Answers the message ' +
          "with the spec's confirmation text.",
        body: createBody,
        response: { 200: messageOut.extend({ message: z.string() }), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      const base = newMessage(user, text(b.messageBody));
      if (b.type === 'CASE_COMMENT' || b.parent) return sendReply(models, user, b, base);
      return startThread(models, user, b, base, req.log);
    },
  );

  registerOpeningRoutes(app, models);
}

/** The thread (a parent message) by id, in the user's scope (404 otherwise). */
async function findThread({ Message }: MessagesModels, user: SessionUser, id: string) {
  const doc = await Message.findOne({
    $and: [{ _id: id, isParent: true, deleted: { $ne: true } }, messagesScope(user)],
  })
    .lean<MessageDoc>()
    .exec();
  if (!doc) throw notFound('Message not found.');
  return doc;
}

/** Trimmed text, or null when blank. */
const text = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

type CreateBody = z.infer<typeof createBody>;
type NewMessage = ReturnType<typeof newMessage>;

/** What a new thread and a reply share: the id, the body, the owner, new and read by its writer, the audit. */
function newMessage(user: SessionUser, body: string | null) {
  const now = new Date();
  const owner = { id: user.id, firstName: user.firstName, lastName: user.lastName };
  return {
    _id: newId(),
    messageBody: body,
    owner,
    read: false,
    new: true,
    readers: [user.id],
    lastMessageCreatedOn: now,
    createdOn: now,
    createdBy: user.id,
    updatedOn: now,
    updatedBy: user.id,
  };
}

/** A reply in a thread the caller may read: the thread is new again for the other side and moves up the list. */
async function sendReply(models: MessagesModels, user: SessionUser, b: CreateBody, base: NewMessage) {
  const { Message } = models;
  const body = base.messageBody;
  const now = base.createdOn;
  if (!b.parent?.id) throw badRequest('A reply needs the message it answers (parent.id).');
  if (!body) throw badRequest('Please enter a message.', { field: 'messageBody' });
  const parent = await findThread(models, user, b.parent.id);
  const reply = {
    ...base,
    subject: text(b.subject) ?? (parent.subject ? `RE: ${parent.subject}` : null),
    isParent: false,
    type: 'CASE_COMMENT' as const,
    parent: { id: parent._id, sfdcId: parent.sfdcId ?? b.parent.sfdcId ?? null },
    testOrderForm: parent.testOrderForm,
    patient: parent.patient,
    hospitalLocation: parent.hospitalLocation,
    account: parent.account,
  };
  await Message.create(reply);
  // the thread is new again for the other side, and moves up the list
  await Message.updateOne(
    { _id: parent._id },
    {
      $set: {
        read: false,
        new: true,
        readers: [user.id],
        lastMessageCreatedOn: now,
        updatedOn: now,
        updatedBy: user.id,
      },
    },
  ).exec();
  return { ...toApi(messageForUser(reply as MessageDoc, user.id)), message: MESSAGE_SENT };
}

/**
 * A new thread (subject and message required): about an order, it belongs to the order's account; otherwise to
 * the account given (one of the caller's) or the caller's only account.
 */
async function startThread(
  models: MessagesModels,
  user: SessionUser,
  b: CreateBody,
  base: NewMessage,
  log: FastifyBaseLogger,
) {
  const { Message } = models;
  const body = base.messageBody;
  const subject = text(b.subject);
  if (!subject || !body)
    throw badRequest('Please enter a subject and a message.', {
      fields: {
        ...(subject ? {} : { subject: 'Subject is required' }),
        ...(body ? {} : { messageBody: 'Message is required' }),
      },
    });
  // about an order: the thread belongs to the order's account (so its users and client services read it),
  // from the service's own copy of the requisition's scope; an order the caller may not see is a 404
  let orderAccount: string | null = null;
  if (b.testOrderForm?.id) {
    const order = await models.RequisitionScope.findById(b.testOrderForm.id).lean().exec();
    if (!order) throw notFound('The order of this message was not found.');
    const visible =
      user.allAccounts ||
      user.accountIds.includes(order.accountId) ||
      user.physicianIds.includes(order.physicianId);
    if (!visible) throw notFound('The order of this message was not found.');
    orderAccount = order.accountId;
  }
  const accountId =
    orderAccount ?? b.account?.id ?? (user.accountIds.length === 1 ? user.accountIds[0] : null);
  if (!orderAccount && accountId && !user.allAccounts && !user.accountIds.includes(accountId))
    throw forbidden();
  const doc = {
    ...base,
    subject,
    isParent: true,
    type: 'CASE' as const,
    parent: null,
    testOrderForm: b.testOrderForm
      ? { id: b.testOrderForm.id, testRequisitionId: b.testOrderForm.testRequisitionId ?? null }
      : null,
    patient: b.patient ? { id: b.patient.id, name: b.patient.name ?? null } : null,
    hospitalLocation: b.hospitalLocation
      ? { id: b.hospitalLocation.id, name: b.hospitalLocation.name ?? null }
      : null,
    account: accountId ? { id: accountId, name: b.account?.name ?? null } : null,
  };
  await Message.create(doc);
  log.info({ messageId: doc._id }, 'message sent to client services');
  return { ...toApi(messageForUser(doc as MessageDoc, user.id)), message: MESSAGE_SENT };
}

/**
 * Opening a thread: PATCH marks it read for the side that did not write last (the writer of the latest message
 * is its only reader, so the writer opening their own thread leaves it new for the other side); addReader only
 * records the reader (which makes it read for that reader, see unreadFor). Both answer the thread as the caller
 * sees it.
 */
function registerOpeningRoutes(app: FastifyInstance, models: MessagesModels) {
  const r = typed(app);
  const { Message } = models;
  const opening = [
    {
      method: 'PATCH' as const,
      url: '/messages/:id',
      summary: 'Mark a thread read (opening an unread message)',
      filter: (user: SessionUser) => ({ readers: { $ne: user.id } }),
      update: (user: SessionUser) => ({ $set: { read: true, new: false }, $addToSet: { readers: user.id } }),
    },
    {
      method: 'PUT' as const,
      url: '/messages/:id/addReader',
      summary: 'Record that the caller opened the thread',
      filter: () => ({}),
      update: (user: SessionUser) => ({ $addToSet: { readers: user.id } }),
    },
  ];
  for (const o of opening)
    r.route({
      method: o.method,
      url: o.url,
      config: { permission: 'VIEW_MESSAGES_PAGE' },
      schema: {
        tags: ['messages'],
        summary: o.summary,
        params: idParams,
        body: z.unknown().optional(),
        response: { 200: messageOut, ...errorReplies },
      },
      handler: async (req) => {
        const user = requireUser(req);
        const thread = await findThread(models, user, (req.params as { id: string }).id);
        const after = await Message.findOneAndUpdate({ _id: thread._id, ...o.filter(user) }, o.update(user), {
          returnDocument: 'after',
        })
          .lean<MessageDoc>()
          .exec();
        return toApi(messageForUser(after ?? thread, user.id));
      },
    });
}
