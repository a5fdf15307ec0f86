import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  listQuerystring,
  listReply,
  parseListQuery,
  sendList,
  typed,
  type ListResource,
} from '@onco/platform';
import type { Icd10Catalog } from '../icd10-catalog';

/** The ICD-10 picker fetches up to 1000 codes a call (spec 1 section 9). */
export const ICD_PAGE_SIZE = 1000;

/** How long after start the ICD-10-CM catalog is loaded when nothing asked for it before. */
export const ICD10_WARM_DELAY_MS = 30_000;

export const icd10Resource: ListResource = {
  name: 'icddx',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    code: { type: 'string', filter: true, sort: true },
    formattedCode: { type: 'string', filter: true, sort: true },
    description: { type: 'string', sort: true },
  },
  search: ['formattedCode', 'code', 'description'],
  defaultSort: { field: 'code', order: 'asc' },
  defaultPerPage: ICD_PAGE_SIZE,
  maxPerPage: ICD_PAGE_SIZE,
  deletedField: 'deleted',
};

export const icd10Reply = z.object({
  id: z.string(),
  code: z.string(),
  formattedCode: z.string(),
  description: z.string(),
});

/**
 * ICD-10-CM codes (spec 1 section 7): search by q (3+ characters) or fetch by formattedCode in(...).
 * Parsed and answered in both list dialects like every list; rows come from the in-memory catalog
 * (see icd10-catalog.ts for why), not from a collection scan per request.
 */
export async function icd10Routes(app: FastifyInstance, { catalog }: { catalog: Icd10Catalog }) {
  // Warm the catalog a while after the process is ready, unless a request loaded it first (the picker's
  // search and billing's code check load it on first use). Not at once: reading 74,719 codes takes ~0.3 s of
  // this process's CPU and as much of the store's, which a process just started (a deploy, a restart) would
  // otherwise spend beside its first requests: a fresh process's first orders list at 100,000 requisitions
  // answered in 0.88-0.91 s with the warm at start and 0.67-0.71 s without (2026-11-26, docs/decisions.md).
  let warm: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    warm = setTimeout(() => {
      if (catalog.size > 0) return;
      catalog
        .ensureFresh()
        .catch((err) => app.log.warn({ err: err?.message }, 'ICD-10-CM catalog not loaded yet'));
    }, ICD10_WARM_DELAY_MS);
    warm.unref();
  });
  app.addHook('onClose', async () => clearTimeout(warm));

  typed(app).get(
    '/icddx',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['diagnosis'],
        summary:
          'ICD-10-CM codes: filter q over code, formattedCode and description, or formattedCode in(...); size up to 1000',
        querystring: listQuerystring,
        response: { 200: listReply(icd10Reply) },
      },
    },
    async (req, reply) => {
      const query = parseListQuery(icd10Resource, req.query as Record<string, unknown>);
      // codes are the same for every account: no data scope
      const result = await catalog.list(query);
      return sendList(reply, icd10Resource, query, result);
    },
  );
}
