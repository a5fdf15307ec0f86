import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  listQuerystring,
  listReply,
  notFound,
  parseListQuery,
  runList,
  sendList,
  typed,
  type ListResource,
} from '@onco/platform';
import type { DiagnosisTypeDoc } from '../models';
import { ONCOTREE_ROOT } from '../importers/oncotree';
import { diagnosisTypeId } from '../ids';
import type { RouteDeps } from './shared';

/** The diagnosis search fetches 30 a page (spec 1 section 9). */
export const DIAGNOSIS_PAGE_SIZE = 30;

/**
 * Diagnosis search. "Results whose path equals its own tissue code are dropped" (spec 1 section 7): the root
 * and the tissue nodes (level 0 and 1), whose path is nothing but their own tissue, cannot be chosen (spec 1
 * section 5: tissue-level nodes cannot be chosen by radio). We drop them in the query, so pages and totals
 * stay right.
 */
export const diagnosisTypesResource: ListResource = {
  name: 'diagnosisTypes',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    code: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    mainType: { type: 'string', filter: true, sort: true },
    tissue: { type: 'string', filter: true, sort: true },
    parentCode: { type: 'string', filter: true },
    level: { type: 'number', filter: true, sort: true },
  },
  search: ['code', 'name'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: DIAGNOSIS_PAGE_SIZE,
  maxPerPage: 200,
  deletedField: 'deleted',
};
export const SELECTABLE_LEVEL = 2;

const childReply = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  mainType: z.string().nullish(),
  tissue: z.string().nullish(),
  childExists: z.boolean(),
});

export const diagnosisTypeReply = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  mainType: z.string().nullish(),
  tissue: z.string().nullish(),
  parentCode: z.string().nullish(),
  level: z.number(),
  path: z.string(),
  /** the path text 'Name (CODE) -> ...' the requisition stores */
  octDxBreadCrumb: z.string(),
  childExists: z.boolean(),
});

export const diagnosisNodeReply = diagnosisTypeReply.extend({ children: z.array(childReply) });

const toReply = (d: DiagnosisTypeDoc) => ({
  id: d._id,
  code: d.code,
  name: d.name,
  mainType: d.mainType,
  tissue: d.tissue,
  parentCode: d.parentCode,
  level: d.level,
  path: d.path,
  octDxBreadCrumb: d.path,
  childExists: d.childExists,
});

/** The OncoTree diagnosis picker (spec 1 sections 2 and 7): drill-down by code, and search. */
export async function diagnosisTypeRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  const node = async (code: string) => {
    // by the id derived from the code (see ids.ts): no collection scan
    const doc = await models.DiagnosisType.findOne({ _id: diagnosisTypeId(code), deleted: { $ne: true } })
      .lean()
      .exec();
    if (!doc) throw notFound(`No diagnosis type with code ${code}`);
    // children by name; served by the (parentCode, name) index
    const children = await models.DiagnosisType.find(
      { parentCode: doc.code, deleted: { $ne: true } },
      { code: 1, name: 1, mainType: 1, tissue: 1, childExists: 1 },
    )
      .sort({ name: 1 })
      .lean()
      .exec();
    return {
      ...toReply(doc as DiagnosisTypeDoc),
      children: children.map((c) => ({
        id: c._id,
        code: c.code,
        name: c.name,
        mainType: c.mainType,
        tissue: c.tissue,
        childExists: c.childExists,
      })),
    };
  };

  r.get(
    '/diagnosisTypes/code',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['diagnosis'],
        summary: `The root node (${ONCOTREE_ROOT}) with its children`,
        response: { 200: diagnosisNodeReply },
      },
    },
    async () => node(ONCOTREE_ROOT),
  );

  r.get(
    '/diagnosisTypes/code/:code',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['diagnosis'],
        summary: 'A diagnosis node with its children and breadcrumb (codes such as MDS/MPN are URL-encoded)',
        params: z.object({ code: z.string().min(1).max(64) }),
        response: { 200: diagnosisNodeReply },
      },
    },
    async (req) => node(req.params.code),
  );

  r.get(
    '/diagnosisTypes',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: {
        tags: ['diagnosis'],
        summary:
          'Diagnosis search (filter q over code and name; 30 a page); tissue-level nodes are not returned',
        querystring: listQuerystring,
        response: { 200: listReply(diagnosisTypeReply) },
      },
    },
    async (req, reply) => {
      const query = parseListQuery(diagnosisTypesResource, req.query as Record<string, unknown>);
      const result = await runList(
        models.DiagnosisType,
        diagnosisTypesResource,
        query,
        { level: { $gte: SELECTABLE_LEVEL } },
        {
          map: (d: DiagnosisTypeDoc) => toReply(d),
        },
      );
      return sendList(reply, diagnosisTypesResource, query, result);
    },
  );
}
