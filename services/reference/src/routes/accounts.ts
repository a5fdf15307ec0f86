import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  badRequest,
  errorReplies,
  forbidden,
  idParams,
  type ListResource,
  listRoutes,
  requireUser,
  scopeFilter,
  type SessionUser,
  toApi,
  typed,
} from '@onco/platform';
import { nextSequence } from '../models';
import { checkPhones, RULE_MSG, type FieldErrors } from '../rules';
import { auditReply, fieldErrors, loadScoped, ref, str, text, updateScoped, type RouteDeps } from './shared';
import { facetNameCaches } from '../name-cache';

export const accountsResource: ListResource = {
  name: 'accounts',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    accountId: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    sfdcId: { type: 'string', filter: true },
    status: { type: 'string', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'accountId'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const hospitalLocationsResource: ListResource = {
  name: 'hospitalLocations',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    hospitalLocationId: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    city: { type: 'string', path: 'address.city', filter: true, sort: true },
    state: { type: 'string', path: 'address.state', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'hospitalLocationId', 'address.city'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

const addressReply = z
  .object({ street: str, city: str, state: str, postalCode: str, country: str })
  .nullish();

export const accountReply = z.object({
  ...auditReply,
  accountId: z.string(),
  name: z.string(),
  sfdcId: str,
  status: str,
  address: addressReply,
});

export const hospitalLocationReply = z.object({
  ...auditReply,
  hospitalLocationId: z.string(),
  name: z.string(),
  account: ref,
  address: z
    .object({ street: str, city: str, state: str, country: str, postalCode: str, telephone: str, fax: str })
    .nullish(),
});

const s = (max: number) => z.string().trim().max(max).nullish();
const createLocationBody = z.object({
  name: z.string().trim().min(1).max(200),
  account: z.union([z.string().max(64), z.object({ id: z.string().max(64) })]).optional(),
  accountId: z.string().max(64).optional(),
  address: z
    .object({
      street: s(200),
      city: s(100),
      state: s(50),
      country: s(100),
      postalCode: s(20),
      telephone: s(30),
      fax: s(30),
    })
    .optional()
    .nullable(),
});

const accountEditBody = z.object({
  name: text(200),
  address: z
    .object({
      street: text(200),
      city: text(100),
      state: text(50),
      postalCode: text(20),
      country: text(100),
    })
    .nullish(),
  version: z.number().int().min(0).optional(),
});

const locationEditBody = z.object({
  name: text(200),
  address: createLocationBody.shape.address,
  version: z.number().int().min(0).optional(),
});

const LOCATION_LABELS: Record<string, string> = {
  name: 'Name',
  'address.telephone': 'Telephone',
  'address.fax': 'Fax',
};

/** Address fields merged over the stored ones (left out: kept; null: cleared), trimmed. */
function mergeAddress(
  body: Record<string, any> | null | undefined,
  stored: Record<string, any> | null,
  keys: string[],
) {
  if (body === null) return null;
  const out: Record<string, string | null> = {};
  for (const k of keys) {
    const v = body?.[k] !== undefined ? body[k] : (stored?.[k] ?? null);
    out[k] = v == null || String(v).trim() === '' ? null : String(v).trim();
  }
  return out;
}

/** A location's name and address: name required, telephone and fax 10 digits. */
function checkLocation(name: string | null | undefined, address: Record<string, string | null> | null) {
  const errors: FieldErrors = {};
  if (!name || !name.trim()) errors.name = RULE_MSG.required;
  if (address)
    checkPhones(
      address,
      [
        { field: 'telephone', label: 'Telephone' },
        { field: 'fax', label: 'Fax' },
      ],
      errors,
      'address.',
    );
  if (Object.keys(errors).length) throw fieldErrors(errors, LOCATION_LABELS);
}
const LOCATION_ADDRESS = ['street', 'city', 'state', 'country', 'postalCode', 'telephone', 'fax'];

export const accountScope = (user: SessionUser) => scopeFilter(user, { account: '_id' });
export const locationScope = (user: SessionUser) => scopeFilter(user, { account: 'account.id' });

/** Accounts and hospital locations (spec 1 section 7). Mounted in the portal area. */
export async function accountRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  listRoutes(app, {
    path: '/accounts',
    resource: accountsResource,
    model: models.Account,
    permission: 'AUTHENTICATED',
    scope: accountScope,
    tag: 'reference',
    noun: 'accounts',
    summary: 'Accounts the user may see (filter id in(...), accountId, name, status; q)',
    row: accountReply,
  });

  r.get(
    '/accounts/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: accountReply } },
    },
    async (req) => loadScoped(models.Account, req.params.id, accountScope(requireUser(req))),
  );

  listRoutes(app, {
    path: '/hospitalLocations',
    resource: hospitalLocationsResource,
    model: models.HospitalLocation,
    permission: 'AUTHENTICATED',
    scope: locationScope,
    tag: 'reference',
    noun: 'hospital locations',
    summary: "Hospital locations of the user's accounts (filter accountId, id in(...); q)",
    row: hospitalLocationReply,
  });

  r.get(
    '/hospitalLocations/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: hospitalLocationReply } },
    },
    async (req) => loadScoped(models.HospitalLocation, req.params.id, locationScope(requireUser(req))),
  );

  r.post(
    '/hospitalLocations',
    {
      config: { permission: 'CAN_CREATE_HOSPITALLOCATION' },
      schema: {
        tags: ['reference'],
        summary: "Create a hospital location for one of the user's accounts",
        body: createLocationBody,
        response: { 201: hospitalLocationReply },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const b = req.body;
      const accountId = b.accountId ?? (typeof b.account === 'string' ? b.account : b.account?.id);
      if (!accountId) throw badRequest('account is required', { field: 'account' });
      const address = mergeAddress(b.address ?? null, null, LOCATION_ADDRESS);
      checkLocation(b.name, address);
      if (!user.allAccounts && !user.accountIds.includes(accountId)) throw forbidden();
      const account = await models.Account.findOne({ _id: accountId, deleted: { $ne: true } }, { name: 1 })
        .lean()
        .exec();
      if (!account) throw badRequest(`Unknown account: ${accountId}`, { field: 'account' });
      const seq = await nextSequence(models, 'hospitalLocation', 1000);
      const created = await models.HospitalLocation.create({
        hospitalLocationId: `HL-${seq}`,
        name: b.name,
        account: { id: account._id, name: account.name },
        address,
        createdBy: user.id,
        updatedBy: user.id,
      });
      reply.status(201);
      return toApi(created.toObject());
    },
  );

  r.put(
    '/accounts/:id',
    {
      config: { permission: 'CAN_CREATE_ACCOUNT' },
      schema: {
        tags: ['reference'],
        summary: 'Edit an account (name required); needs CAN_CREATE_ACCOUNT',
        params: idParams,
        body: accountEditBody,
        response: { 200: accountReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      return updateScoped({
        model: models.Account,
        id: req.params.id,
        scope: accountScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
          const name = (b.name !== undefined ? b.name : current.name)?.trim();
          if (!name) throw fieldErrors({ name: RULE_MSG.required }, { name: 'Name' });
          const address = mergeAddress(b.address, current.address, [
            'street',
            'city',
            'state',
            'postalCode',
            'country',
          ]);
          return { name, address };
        },
      }).finally(() => facetNameCaches(models).account.forget(req.params.id));
    },
  );

  r.put(
    '/hospitalLocations/:id',
    {
      config: { permission: 'CAN_CREATE_HOSPITALLOCATION' },
      schema: {
        tags: ['reference'],
        summary:
          "Edit a hospital location's name and address (telephone and fax 10 digits); needs CAN_CREATE_HOSPITALLOCATION",
        params: idParams,
        body: locationEditBody,
        response: { 200: hospitalLocationReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      return updateScoped({
        model: models.HospitalLocation,
        id: req.params.id,
        scope: locationScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
          const name = (b.name !== undefined ? b.name : current.name)?.trim() ?? null;
          const address = mergeAddress(b.address, current.address, LOCATION_ADDRESS);
          checkLocation(name, address);
          return { name, address };
        },
      }).finally(() => facetNameCaches(models).location.forget(req.params.id));
    },
  );
}
