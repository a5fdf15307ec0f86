import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  idParams,
  type ListResource,
  listRoutes,
  requireUser,
  scopeFilter,
  type SessionUser,
  typed,
} from '@onco/platform';
import { and, auditReply, loadScoped, str, type RouteDeps } from './shared';

export const physiciansResource: ListResource = {
  name: 'physicians',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    userId: { type: 'string', filter: true, sort: true },
    firstName: { type: 'string', filter: true, sort: true },
    lastName: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    email: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    accountIds: { type: 'id', filter: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocationIds', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'firstName', 'lastName', 'userId', 'email'],
  defaultSort: { field: 'lastName', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const pathologistsResource: ListResource = {
  name: 'pathologists',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    name: { type: 'string', filter: true, sort: true },
    npi: { type: 'string', filter: true, sort: true },
    accountIds: { type: 'id', filter: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'npi', 'email'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const physicianReply = z.object({
  ...auditReply,
  userId: z.string(),
  firstName: z.string(),
  middleName: str,
  lastName: z.string(),
  name: z.string(),
  phone: str,
  email: str,
  fax: str,
  status: z.string(),
  accountIds: z.array(z.string()),
  hospitalLocationIds: z.array(z.string()),
});

export const pathologistReply = z.object({
  ...auditReply,
  name: z.string(),
  npi: str,
  phone: str,
  email: str,
  fax: str,
  accountIds: z.array(z.string()),
});

/** A user sees the physicians of their accounts and the physicians they act for (their own record included). */
export const physicianScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'accountIds', physician: '_id' });
export const pathologistScope = (user: SessionUser) => scopeFilter(user, { account: 'accountIds' });

/** Physicians (providers) and pathologists (spec 1 sections 3 and 7). Mounted in the portal area. */
export async function providerRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  listRoutes(app, {
    path: '/physicians',
    resource: physiciansResource,
    model: models.Physician,
    permission: 'AUTHENTICATED',
    scope: (user) => and(physicianScope(user), { status: { $ne: 'SUSPENDED' } }),
    tag: 'reference',
    noun: 'physicians',
    summary: 'Provider search: never SUSPENDED physicians (filter id in(...), accountId, userId; q)',
    row: physicianReply,
  });

  r.get(
    '/physicians/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: physicianReply } },
    },
    // a suspended physician is still readable by id: orders that name them keep showing them
    async (req) => loadScoped(models.Physician, req.params.id, physicianScope(requireUser(req))),
  );

  listRoutes(app, {
    path: '/pathologists',
    resource: pathologistsResource,
    model: models.Pathologist,
    permission: 'AUTHENTICATED',
    scope: pathologistScope,
    tag: 'reference',
    noun: 'pathologists',
    summary: "Pathologists of the user's accounts (filter accountIds in(...); q)",
    row: pathologistReply,
  });

  r.get(
    '/pathologists/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: pathologistReply } },
    },
    async (req) => loadScoped(models.Pathologist, req.params.id, pathologistScope(requireUser(req))),
  );
}
