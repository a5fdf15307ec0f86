import type { Model } from 'mongoose';
import type { FastifyReply } from 'fastify';
import { buildMatch, type Facet, type ListQuery, type ListResource, type ListResult } from './list-query';
import { toApi } from './records';

/** Run a parsed list query against a model: rows, total and the asked-for facets (one $group each, in parallel). */
export async function runList<T = Record<string, unknown>>(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  opts: { projection?: Record<string, 0 | 1>; map?: (doc: any) => T } = {},
): Promise<ListResult<T>> {
  const match = buildMatch(resource, query, scope);
  const dir = query.sort.order === 'asc' ? 1 : -1;
  const [rows, total, facets] = await Promise.all([
    model
      .find(match, opts.projection ?? { outbox: 0 })
      .sort({ [query.sort.path]: dir, _id: dir })
      .skip(query.page * query.perPage)
      .limit(query.perPage)
      .lean()
      .exec(),
    model.countDocuments(match).exec(),
    runFacets(model, resource, query, scope, query.facets),
  ]);
  const map = opts.map ?? ((d: any) => toApi(d) as T);
  return { content: rows.map(map), totalElements: total, ...(query.facets.length ? { facets } : {}) };
}

export async function runFacets(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
): Promise<Facet[]> {
  const defs = (resource.facets ?? []).filter((f) => names.includes(f.name));
  return Promise.all(
    defs.map(async (def) => {
      const field = resource.fields[def.field];
      const path = def.path ?? field?.path ?? def.field;
      const pipeline: any[] = [{ $match: buildMatch(resource, query, scope, def.field) }];
      if (def.unwind) pipeline.push({ $unwind: `$${def.unwind}` });
      pipeline.push({ $group: { _id: `$${path}`, count: { $sum: 1 } } }, { $sort: { count: -1, _id: 1 } });
      const groups: Array<{ _id: unknown; count: number }> = await model.aggregate(pipeline).exec();
      return {
        name: def.name,
        items: groups
          .filter((g) => g._id !== null && g._id !== undefined && g._id !== '')
          .map((g) => ({ value: g._id, count: g.count })),
      };
    }),
  );
}

/** Reply in the dialect the client spoke: {content,totalElements,facets} or ra-data-simple-rest's array + Content-Range. */
export function sendList<T>(
  reply: FastifyReply,
  resource: ListResource,
  query: ListQuery,
  result: ListResult<T>,
) {
  if (query.dialect === 'simple-rest') {
    const start = query.page * query.perPage;
    const end = result.content.length ? start + result.content.length - 1 : start;
    reply.header('Content-Range', `${resource.name} ${start}-${end}/${result.totalElements}`);
    reply.header('Access-Control-Expose-Headers', 'Content-Range');
    return reply.send(result.content);
  }
  return reply.send(result);
}
