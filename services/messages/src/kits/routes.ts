import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { KIT_MSG } from '@onco/domain';
import {
  dateOut,
  errorReplies,
  listRoutes,
  requireUser,
  scopeFilter,
  typed,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import type { KitRequestDoc } from '../models';
import type { MessagesDeps } from '../use-cases/deps';
import { orderKit, type KitOrder } from './order-kit';

export type { AccountNames } from '../use-cases/deps';

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
 * client services (decision, docs/decisions.md "Test kits"): orderKit (./order-kit.ts) writes the kit request and
 * a CASE message from the requester in ONE transaction, so client services see every request in their messages,
 * can answer in its thread, and no request exists without its notification.
 */
export async function kitRoutes(app: FastifyInstance, opts: MessagesDeps) {
  listRoutes(app, {
    path: '/kits',
    resource: kitsResource,
    model: opts.models.KitRequest,
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
      const kit = await orderKit(opts, user, req.body as KitOrder);
      req.log.info(
        { kitRequestId: kit._id, accountId: kit.account?.id, kits: kit.numberOfKits },
        'kit request received',
      );
      return { ...kitToApi(kit), message: KIT_MSG.received };
    },
  );
}
