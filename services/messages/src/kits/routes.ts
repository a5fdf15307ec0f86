import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  KIT_MSG,
  KIT_TYPE_DESCRIPTIONS,
  normalizeKitForm,
  validateKitForm,
  type KitForm,
} from '@onco/domain';
import {
  badRequest,
  dateOut,
  errorReplies,
  forbidden,
  inTransaction,
  listRoutes,
  newId,
  requireUser,
  scopeFilter,
  typed,
  type ListResource,
  type SessionUser,
  newRecordAudit,
} from '@onco/platform';
import type { KitRequestDoc, MessagesModels } from '../models';

/** Account names by id (the reference service's directory, wired by the server; names only). */
export interface AccountNames {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

/** The kits list (spec 2 sections 2.10 and 7 "Kits"): /portal/api/v1/kits, 15 a page, newest first. */
export const kitsResource: ListResource = {
  name: 'kits',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    testKitType: { type: 'string', filter: true, sort: true },
    numberOfKits: { type: 'number', filter: true, sort: true },
    recipient: { type: 'string', filter: true, sort: true },
    shippingRequest: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    createdBy: { type: 'id', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
  },
  search: ['recipient', 'institute', 'city', 'account.name'],
  defaultSort: { field: 'createdOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/**
 * Who sees a kit request (issue 15 "scope by creator and account"): its creator, and the users of its account;
 * staff with every account see all of them.
 */
export const kitsScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'account.id', owner: 'createdBy' });

const kitOut = z.object({
  id: z.string(),
  testKitType: z.string(),
  numberOfKits: z.number(),
  recipient: z.string().nullable(),
  institute: z.string().nullable(),
  street: z.string().nullable(),
  suite: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  shippingRequest: z.string().nullable(),
  account: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  createdOn: dateOut,
  createdBy: z.string().nullable(),
});

const kitToApi = (d: KitRequestDoc): z.infer<typeof kitOut> => ({
  id: d._id,
  testKitType: d.testKitType,
  numberOfKits: d.numberOfKits,
  recipient: d.recipient,
  institute: d.institute,
  street: d.street,
  suite: d.suite,
  city: d.city,
  state: d.state,
  postalCode: d.postalCode,
  shippingRequest: d.shippingRequest,
  account: d.account,
  createdOn: d.createdOn,
  createdBy: d.createdBy,
});

const text = z.string().max(500).nullish();
const kitBody = z.object({
  testKitType: text,
  numberOfKits: z.union([z.number(), z.string().max(20)]).nullish(),
  recipient: text,
  institute: text,
  street: text,
  suite: text,
  city: text,
  state: text,
  postalCode: text,
  shippingRequest: text,
  account: z.object({ id: z.string().min(1).max(200) }).nullish(),
});

/**
 * Kit requests: the list and the request form (VIEW_KITS_ACTIONS). A request is sent downstream as a message to
 * client services (decision, docs/decisions.md "Test kits"): the kit request and a CASE message from the requester
 * ("Kit request: …", the shipping details in its body) are written in ONE transaction, so client services see every
 * request in their messages, can answer in its thread, and no request exists without its notification.
 */
export async function kitRoutes(
  app: FastifyInstance,
  opts: { models: MessagesModels; accounts?: AccountNames },
) {
  const { models, accounts } = opts;
  listRoutes(app, {
    path: '/kits',
    resource: kitsResource,
    model: models.KitRequest,
    permission: 'VIEW_KITS_PAGE',
    scope: (user) => kitsScope(user),
    tag: 'kits',
    noun: 'kit requests',
    map: (doc: KitRequestDoc) => kitToApi(doc),
  });

  typed(app).post(
    '/kits',
    {
      config: { permission: 'VIEW_KITS_ACTIONS' },
      schema: {
        tags: ['kits'],
        summary: 'Request test kits',
        description:
          "The kit form (spec 2 section 5) plus the account the kits are for (one of the caller's accounts; staff " +
          'with every account may name any). 400 with `details.fields` when a rule fails, nothing stored. The ' +
          'request and its message to client services are written together.',
        body: kitBody,
        response: { 200: kitOut.extend({ message: z.string() }), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const form = req.body as KitForm & { account?: { id: string } | null };
      const fields = validateKitForm(form);
      const accountId = form.account?.id ?? (user.accountIds.length === 1 ? user.accountIds[0] : null);
      if (Object.keys(fields).length || !accountId)
        throw badRequest(
          accountId
            ? 'The kit request has errors: ' +
                Object.entries(fields)
                  .map(([k, m]) => `${k}: ${m}`)
                  .join('; ')
            : 'Choose the account the kits are for.',
          { fields: accountId ? fields : { ...fields, account: KIT_MSG.required } },
        );
      if (!user.allAccounts && !user.accountIds.includes(accountId)) throw forbidden();
      const account = { id: accountId, name: (await accounts?.get(accountId))?.name ?? null };
      const kit = normalizeKitForm(form);
      const now = new Date();
      const id = newId();
      const doc = {
        _id: id,
        ...kit,
        account,
        ...newRecordAudit(user.id, now),
      };
      const address = [kit.institute, kit.street, kit.suite, `${kit.city}, ${kit.state} ${kit.postalCode}`]
        .filter(Boolean)
        .join(', ');
      await inTransaction(app.platform.mongo, async (session) => {
        await models.KitRequest.create([doc], { session });
        await models.Message.create(
          [
            {
              _id: newId(),
              subject: `Kit request: ${kit.numberOfKits} × ${KIT_TYPE_DESCRIPTIONS[kit.testKitType]}`,
              messageBody:
                `${kit.numberOfKits} × ${KIT_TYPE_DESCRIPTIONS[kit.testKitType]} (${kit.testKitType}), ` +
                `shipping ${kit.shippingRequest.replace(/_/g, ' ').toLowerCase()}, for ${kit.recipient}, ` +
                `${address}. Account: ${account.name ?? account.id}. Kit request ${id}.`,
              isParent: true,
              type: 'CASE',
              read: false,
              new: true,
              owner: { id: user.id, firstName: user.firstName, lastName: user.lastName },
              account,
              activityType: 'KIT_REQUEST',
              lastMessageCreatedOn: now,
              createdOn: now,
              createdBy: user.id,
              updatedOn: now,
              updatedBy: user.id,
            },
          ],
          { session },
        );
      });
      req.log.info({ kitRequestId: id, accountId, kits: kit.numberOfKits }, 'kit request received');
      return { ...kitToApi(doc as KitRequestDoc), message: KIT_MSG.received };
    },
  );
}
