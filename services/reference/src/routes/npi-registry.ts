import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { badRequest, errorBody, errorReplies, typed } from '@onco/platform';
import {
  NPI_STAND_IN_PATH,
  type NpiRegistryClient,
  type NpiRegistryStandIn,
  type NppesResponse,
} from '../npi-registry';

const location = z.object({
  name: z.string(),
  purpose: z.enum(['LOCATION', 'PRACTICE']),
  address: z.object({
    street: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    country: z.string().nullable(),
    postalCode: z.string().nullable(),
    telephone: z.string().nullable(),
    fax: z.string().nullable(),
  }),
});

export const npiProviderReply = z.object({
  userId: z.string(),
  name: z.string(),
  firstName: z.string(),
  middleName: z.string().nullable(),
  lastName: z.string(),
  credential: z.string().nullable(),
  specialty: z.string().nullable(),
  locations: z.array(location),
});

const NAME_RE = /^[A-Za-z][A-Za-z' .-]*\*?$/;
const lookupQuery = z.object({
  firstName: z.string().trim().max(50).optional(),
  /** the registry's own spelling, accepted too */
  first_name: z.string().trim().max(50).optional(),
  lastName: z.string().trim().max(50).optional(),
  number: z.string().trim().max(20).optional(),
});

/**
 * GET /npiRegistry: the provider pick's NPI lookup (VIEW_NPI_REGISTRY), through the adapter to the registry
 * configured by NPI_REGISTRY_URL. Exactly one of firstName (optionally with lastName) or number.
 */
export async function npiRegistryRoutes(app: FastifyInstance, { client }: { client: NpiRegistryClient }) {
  typed(app).get(
    '/npiRegistry',
    {
      config: { permission: 'VIEW_NPI_REGISTRY' },
      schema: {
        tags: ['reference'],
        summary:
          'NPI registry lookup by first name (optionally last name; a trailing * matches a prefix) or NPI number: individuals (NPI-1) in the US, up to 20',
        querystring: lookupQuery,
        response: {
          200: z.object({ content: z.array(npiProviderReply), totalElements: z.number() }),
          ...errorReplies,
          502: errorBody,
        },
      },
    },
    async (req) => {
      const q = req.query;
      const firstName = q.firstName || q.first_name || undefined;
      const number = q.number || undefined;
      if (!firstName && !number)
        throw badRequest('Enter a first name or an NPI number to search the NPI registry.', {
          field: 'firstName',
        });
      if (firstName && number)
        throw badRequest('Search the NPI registry by first name or by NPI number, not both.', {
          field: 'number',
        });
      if (number && !/^\d{10}$/.test(number))
        throw badRequest('Invalid NPI: an NPI number is 10 digits.', { field: 'number' });
      if (firstName && (!NAME_RE.test(firstName) || firstName.replace('*', '').length < 2))
        throw badRequest('Invalid First Name', { field: 'firstName' });
      if (q.lastName && !NAME_RE.test(q.lastName))
        throw badRequest('Invalid Last Name', { field: 'lastName' });
      return client.lookup(number ? { number } : { firstName, lastName: q.lastName || undefined });
    },
  );
}

/**
 * The stand-in registry (public, like the registry): answers the version 2.1 query contract from the fixture,
 * with the faults set on it (status, delay, malformed body). Mounted in the portal area at
 * /portal/api/v1/standIns/npiRegistry/api; tests also serve it from a bare Fastify instance.
 */
export async function npiStandInRoutes(app: FastifyInstance, { standIn }: { standIn: NpiRegistryStandIn }) {
  app.get(
    NPI_STAND_IN_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['stand-ins'],
        summary: 'Stand-in for the NPI registry API (version 2.1 query contract) over a small fixture',
      },
    },
    async (req, reply) => {
      const f = standIn.faults;
      if (f.delayMs) await new Promise((r) => setTimeout(r, f.delayMs));
      if (f.status) return reply.status(f.status).send({ message: 'stand-in fault' });
      if (f.malformed) return reply.type('text/html').send('<html>maintenance</html>');
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(req.query as Record<string, unknown>))
        if (v !== undefined) qs.set(k, String(Array.isArray(v) ? v[0] : v));
      const body: NppesResponse = standIn.answer(qs);
      return body;
    },
  );
}
