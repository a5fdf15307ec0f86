import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { listQuerystring, listReply, parseListQuery, runList, sendList, typed, type ListResource } from '@onco/platform';
import type { RouteDeps } from './shared';

/** The ICD-10 picker fetches up to 1000 codes a call (spec 1 section 9). */
export const ICD_PAGE_SIZE = 1000;

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

const projection = { code: 1, formattedCode: 1, description: 1 } as const;

/** ICD-10-CM codes (spec 1 section 7): search by q (3+ characters) or fetch by formattedCode in(...). */
export async function icd10Routes(app: FastifyInstance, { models }: RouteDeps) {
  typed(app).get(
    '/icddx',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['diagnosis'],
        summary: 'ICD-10-CM codes: filter q over code, formattedCode and description, or formattedCode in(...); size up to 1000',
        querystring: listQuerystring,
        response: { 200: listReply(icd10Reply) },
      },
    },
    async (req, reply) => {
      const query = parseListQuery(icd10Resource, req.query as Record<string, unknown>);
      // codes are the same for every account: no data scope
      const result = await runList(models.Icd10Code, icd10Resource, query, {}, {
        projection,
        map: (d: any) => ({ id: d._id, code: d.code, formattedCode: d.formattedCode, description: d.description }),
      });
      return sendList(reply, icd10Resource, query, result);
    },
  );
}
