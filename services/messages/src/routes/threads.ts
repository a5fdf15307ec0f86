import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { dateOut, errorReplies, getByIdRoute, idParams, requireUser, typed } from '@onco/platform';
import type { MessageDoc } from '../models';
import { messageForUser } from '../resource';
import {
  addThreadReader,
  markThreadRead,
  readThread,
  replyInThread,
  startThread,
  type MessagesDeps,
} from '../use-cases';

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
export async function threadRoutes(app: FastifyInstance, opts: MessagesDeps) {
  const r = typed(app);

  getByIdRoute(app, {
    path: '/messages/:id',
    permission: 'VIEW_MESSAGES_PAGE',
    tag: 'messages',
    summary: 'A message thread with its replies',
    reply: threadOut,
    errorReplies: true,
    // a thread is a read of its patient's data (docs/audit.md)
    audit: {
      record: 'message',
      subject: (t: {
        id: string;
        patient?: { id?: string | null } | null;
        account?: { id?: string | null } | null;
      }) => ({
        id: t.id,
        patientId: t.patient?.id ?? null,
        accountIds: [t.account?.id],
      }),
    },
    load: async (user, id) => {
      const { parent, replies } = await readThread(opts, user, id);
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
      const sent = (doc: MessageDoc) => ({ ...toApi(messageForUser(doc, user.id)), message: MESSAGE_SENT });
      if (b.type === 'CASE_COMMENT' || b.parent) return sent(await replyInThread(opts, user, b));
      const doc = await startThread(opts, user, b);
      req.log.info({ messageId: doc._id }, 'message sent to client services');
      return sent(doc);
    },
  );

  registerOpeningRoutes(app, opts);
}

/**
 * Opening a thread: PATCH marks it read for the side that did not write last; addReader only records the reader
 * (use-cases/mark-read.ts). Both answer the thread as the caller sees it.
 */
function registerOpeningRoutes(app: FastifyInstance, opts: MessagesDeps) {
  const r = typed(app);
  const opening = [
    {
      method: 'PATCH' as const,
      url: '/messages/:id',
      summary: 'Mark a thread read (opening an unread message)',
      open: markThreadRead,
    },
    {
      method: 'PUT' as const,
      url: '/messages/:id/addReader',
      summary: 'Record that the caller opened the thread',
      open: addThreadReader,
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
        const thread = await o.open(opts, user, (req.params as { id: string }).id);
        return toApi(messageForUser(thread, user.id));
      },
    });
}
