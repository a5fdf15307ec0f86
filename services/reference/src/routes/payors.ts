import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { type ListResource, listRoutes } from '@onco/platform';
import { auditReply, str, type RouteDeps } from './shared';

export const payorsResource: ListResource = {
  name: 'payors',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    name: { type: 'string', filter: true, sort: true },
    payorId: { type: 'string', filter: true, sort: true },
    payorGroup: { type: 'string', filter: true, sort: true },
    state: { type: 'string', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'payorId', 'payorGroup'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

export const payorReply = z.object({
  ...auditReply,
  name: z.string(),
  payorGroup: str,
  payorId: z.string(),
  street: str,
  city: str,
  state: str,
  zipCode: str,
});

/** Payor search for the billing step (spec 1 section 7: filter q, 15 a page). Payors are shared by every account. */
export async function payorRoutes(app: FastifyInstance, { models }: RouteDeps) {
  listRoutes(app, {
    path: '/payors',
    resource: payorsResource,
    model: models.Payor,
    permission: 'AUTHENTICATED',
    scope: () => ({}), // reference data shared by all accounts: no data scope
    tag: 'reference',
    noun: 'payors',
    summary: 'Payor search (q over name, payor id and group; 15 a page)',
    row: payorReply,
  });
}
