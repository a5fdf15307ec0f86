import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { scopeFilter, type SessionUser } from '@onco/platform';
import { RULE_MSG } from '../rules';
import {
  checkLocation,
  insertHospitalLocations,
  LOCATION_ADDRESS,
  mergeAddress,
  prepareHospitalLocation,
} from '../use-cases';
import { ACCOUNT_CHANGE, HOSPITAL_LOCATION_CHANGE } from '../use-cases/audit';
import { auditReply, fieldErrors, ref, str, text, type RouteDeps } from './shared';
import { directoryResource, scopedResourceRoutes } from './scoped-resource';
import { facetNameCaches } from '../name-cache';

export const accountsResource = directoryResource({
  name: 'accounts',
  fields: {
    accountId: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    sfdcId: { type: 'string', filter: true },
    status: { type: 'string', filter: true, sort: true },
  },
  search: ['name', 'accountId'],
  defaultSort: { field: 'name', order: 'asc' },
});

export const hospitalLocationsResource = directoryResource({
  name: 'hospitalLocations',
  fields: {
    hospitalLocationId: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    city: { type: 'string', path: 'address.city', filter: true, sort: true },
    state: { type: 'string', path: 'address.state', filter: true, sort: true },
  },
  search: ['name', 'hospitalLocationId', 'address.city'],
  defaultSort: { field: 'name', order: 'asc' },
});

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

export const accountScope = (user: SessionUser) => scopeFilter(user, { account: '_id' });
export const locationScope = (user: SessionUser) => scopeFilter(user, { account: 'account.id' });

/** Accounts and hospital locations (spec 1 section 7). Mounted in the portal area. */
export async function accountRoutes(app: FastifyInstance, deps: RouteDeps) {
  const { models } = deps;
  scopedResourceRoutes(app, {
    path: '/accounts',
    model: models.Account,
    scope: accountScope,
    reply: accountReply,
    // each edit (one or a bulk's rows) commits with its audit entry: who, the account, the fields changed
    changes: ACCOUNT_CHANGE,
    list: {
      resource: accountsResource,
      noun: 'accounts',
      summary: 'Accounts the user may see (filter id in(...), accountId, name, status; q)',
    },
    edit: {
      permission: 'CAN_CREATE_ACCOUNT',
      summary: 'Edit an account (name required); needs CAN_CREATE_ACCOUNT',
      body: accountEditBody,
      change: (b, current) => {
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
      after: (id) => facetNameCaches(models).account.forget(id),
    },
  });

  scopedResourceRoutes(app, {
    path: '/hospitalLocations',
    model: models.HospitalLocation,
    scope: locationScope,
    reply: hospitalLocationReply,
    // each create and edit (one or a bulk's rows) commits with its audit entry
    changes: HOSPITAL_LOCATION_CHANGE,
    list: {
      resource: hospitalLocationsResource,
      noun: 'hospital locations',
      summary: "Hospital locations of the user's accounts (filter accountId, id in(...); q)",
    },
    edit: {
      permission: 'CAN_CREATE_HOSPITALLOCATION',
      summary:
        "Edit a hospital location's name and address (telephone and fax 10 digits); needs CAN_CREATE_HOSPITALLOCATION",
      body: locationEditBody,
      change: (b, current) => {
        const name = (b.name !== undefined ? b.name : current.name)?.trim() ?? null;
        const address = mergeAddress(b.address, current.address, LOCATION_ADDRESS);
        checkLocation(name, address);
        return { name, address };
      },
      after: (id) => facetNameCaches(models).location.forget(id),
    },
    create: {
      permission: 'CAN_CREATE_HOSPITALLOCATION',
      summary: "Create a hospital location for one of the user's accounts",
      body: createLocationBody,
      prepare: (b, user) => prepareHospitalLocation(deps, user, b),
      insert: (rows, user, session) => insertHospitalLocations(deps, user, rows, session),
    },
  });
}
