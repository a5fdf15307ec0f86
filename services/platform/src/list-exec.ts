import type { Model } from 'mongoose';
import type { FastifyReply } from 'fastify';
import {
  buildMatch,
  type Facet,
  type FacetDef,
  type ListQuery,
  type ListResource,
  type ListResult,
} from './list-query';
import { countsKey, listCountsCache, sharedListCounts, type ListCounts } from './list-counts';
import { orderedHint } from './ordered-indexes';
import { toApi } from './records';

export interface RunListOptions<T> {
  /** the page's rows (default: everything but the pending events) */
  projection?: Record<string, 0 | 1>;
  map?: (doc: any) => T;
}

/**
 * Run a parsed list query against a model: rows, total and the asked-for facets, all answered by the database.
 *
 * One aggregate per distinct match (see `facetPlan`): the page, the total and every facet whose field is not
 * filtered share the list's own match, so they are ONE aggregate: `$match` (index-backed) → `$project` (only
 * the paths the rest reads) → `$facet {page: the ids in order, total, one group per facet}`. A facet whose field
 * is filtered counts without its own filter (multi-select), so it gets an aggregate of its own with that match.
 * All run in parallel; then the page's documents are read by `_id`.
 *
 * Why this shape (DocumentDB 0.106, the local store; `npm run bench:orders -- --designs 20` at 100,000
 * requisitions, the Submitted list with its 10 facets): each query that looks into the matched documents reads
 * and decodes every one of them (~5 µs each; with its default settings DocumentDB also sorts the matched rows
 * rather than reading an index in order), while a `$facet` materializes its input once and each sub-pipeline
 * over those small projected rows costs ~1 µs a row. This plan reads the documents twice a request (0.99 req/s
 * at concurrency 10); (a) the whole list as one `$facet` over the match without facet filters, each
 * sub-pipeline applying the other facets' filters, 0.68 req/s; (b) a find, a count and one `$group` aggregate
 * per facet in parallel (12 reads of the matched documents), 0.44 req/s. Without facets, the same reasoning:
 * page and total from one aggregate (4.0-4.5 req/s) rather than a find and a countDocuments (1.9-2.1 req/s).
 */
export async function runList<T = Record<string, unknown>>(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  opts: RunListOptions<T> = {},
): Promise<ListResult<T>> {
  const map = opts.map ?? ((d: any) => toApi(d) as T);
  const projection = opts.projection ?? { outbox: 0 };
  const q = countsQuestion(model, resource, query, scope, query.facets);
  const known = q.known ?? (await fromShared(model, q));
  let rows: any[];
  let answer: ListCounts;
  if (known) {
    // the counts are known (or being counted by another request): only the page is read
    [rows, answer] = await Promise.all([pageOf(model, resource, query, scope, projection), known]);
  } else {
    // page, total and facets together (one pass over the matched documents), then the page's documents
    const all = await listCountsCache.own(
      q.key,
      () => listQueries(model, resource, query, scope, query.facets, true),
      ({ total, facets }) => ({ total, facets }),
      share(model, q.key),
    );
    answer = all;
    rows = await docsInOrder(model, all.pageIds, projection);
  }
  return {
    content: rows.map(map),
    totalElements: answer.total,
    ...(query.facets.length ? { facets: answer.facets } : {}),
  };
}

/**
 * A list's counts question (total and the named facets) and what is already known of its answer: kept counts
 * (starting their refresh when past the TTL), or another request's count of a large list in flight.
 */
function countsQuestion(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
) {
  const counts = listAggregates(resource, query, scope, names, false, true);
  const key = countsKey(`${model.db.name}.${model.collection.collectionName}`, counts.aggregates);
  const kept = listCountsCache.peek(key);
  if (kept?.refresh) refresh(model, key, counts);
  const known: ListCounts | Promise<ListCounts> | undefined = kept?.value ?? listCountsCache.pending(key);
  return { counts, key, known };
}

/** Count a question again beside the requests (once for all of them), sharing the new counts. */
function refresh(model: Model<any>, key: string, counts: ReturnType<typeof listAggregates>): void {
  void listCountsCache.compute(key, () => countsOf(model, counts), share(model, key)).catch(() => undefined);
}

/**
 * The counts another process keeps for this question (`list_counts`, see `SharedListCounts`), when young
 * enough: asked only when this process has none and did not find the list small last time. A failed read is a
 * miss (the request counts itself).
 */
async function fromShared(
  model: Model<any>,
  q: ReturnType<typeof countsQuestion>,
): Promise<ListCounts | undefined> {
  const db = model.db.db;
  if (!db || !listCountsCache.mayShare(q.key)) return undefined;
  const got = await sharedListCounts(db)
    .get(q.key)
    .catch(() => undefined);
  const served = got && listCountsCache.adopt(q.key, got.value, got.at);
  if (!served) return undefined;
  if (served.refresh) refresh(model, q.key, q.counts);
  return served.value;
}

/** What writes a question's kept counts to the shared copy (a failed write only leaves the copy older). */
function share(model: Model<any>, key: string) {
  const db = model.db.db;
  if (!db || !listCountsCache.policy.shared) return undefined;
  return (value: ListCounts, at: number) => {
    const { ttlMs, staleMs } = listCountsCache.policy;
    void sharedListCounts(db)
      .put(key, value, at, ttlMs + staleMs)
      .catch(() => undefined);
  };
}

/**
 * The page's documents alone, in the list's order: one find. Asked only of a large list (its counts kept), so
 * when an ordered index serves the sort (`ordered-indexes.ts`) it is hinted: a page then reads about
 * (skip + 15) x all / matching index entries, a few ms, where the store would otherwise sort every match. A
 * list with few matches is not hinted (walking the index for them would cost more than sorting them).
 */
async function pageOf(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  projection: Record<string, 0 | 1>,
): Promise<any[]> {
  const sort = sortOf(query);
  const find = model
    .find(buildMatch(resource, query, scope), projection)
    .sort(sort)
    .skip(query.page * query.perPage)
    .limit(query.perPage);
  const hint = orderedHint(model.db.name, model.collection.collectionName, sort);
  if (hint) find.hint(hint);
  return find.lean().exec();
}

/** Documents by id in the order of `ids` (a row deleted between the two reads is left out). */
async function docsInOrder(model: Model<any>, ids: unknown[], projection: Record<string, 0 | 1>) {
  if (!ids.length) return [];
  const docs: any[] = await model
    .find({ _id: { $in: ids } }, projection)
    .lean()
    .exec();
  const byId = new Map(docs.map((d) => [idKey(d._id), d]));
  return ids.flatMap((id) => {
    const d = byId.get(idKey(id));
    return d ? [d] : [];
  });
}

/** The total and the facets alone (the aggregates of `listAggregates(…, false, true)`). */
async function countsOf(
  model: Model<any>,
  { defs, aggregates }: ReturnType<typeof listAggregates>,
): Promise<ListCounts> {
  const answers = await Promise.all(aggregates.map((a) => model.aggregate(a.pipeline as any[]).exec()));
  const { total, facets } = listAnswer(defs, aggregates, answers);
  return { total, facets };
}

/** The named facets of a list query (runList's aggregates without the page and the total). */
export async function runFacets(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
): Promise<Facet[]> {
  // the same question as the list's own counts (total included, so the policy knows the list's size): the
  // rows request and this facets request of one screen share the kept counts
  const q = countsQuestion(model, resource, query, scope, names);
  const answer = await (q.known ??
    (await fromShared(model, q)) ??
    listCountsCache.own(
      q.key,
      () => countsOf(model, q.counts),
      (v) => v,
      share(model, q.key),
    ));
  return answer.facets;
}

/** The list's sort: the asked field, then `_id` in the same direction (a total order: pages never overlap). */
function sortOf(query: ListQuery): Record<string, 1 | -1> {
  const dir = query.sort.order === 'asc' ? 1 : -1;
  return query.sort.path === '_id' ? { _id: dir } : { [query.sort.path]: dir, _id: dir };
}

function idKey(id: unknown): string {
  return typeof id === 'string' ? id : String(id);
}

/** The path a facet groups by. */
function facetPath(resource: ListResource, def: FacetDef): string {
  return def.path ?? resource.fields[def.field]?.path ?? def.field;
}

/**
 * Which aggregates answer a list's facets: the facets grouped by the match they count over. A facet counts the
 * rows passing every filter but its own field's, so every facet whose field has no filter counts over the
 * list's own match (the `main` group, which also answers the page and the total); the facets of a filtered
 * field count over the match without that field's filters.
 */
export function facetPlan(
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
) {
  const defs = (resource.facets ?? []).filter((f) => names.includes(f.name));
  const filtered = new Set(query.filters.map((f) => f.field));
  const main = {
    match: buildMatch(resource, query, scope),
    defs: defs.filter((d) => !filtered.has(d.field)),
  };
  const own = [...new Set(defs.filter((d) => filtered.has(d.field)).map((d) => d.field))].map((field) => ({
    match: buildMatch(resource, query, scope, field),
    defs: defs.filter((d) => d.field === field),
  }));
  return { defs, main, own };
}

/**
 * The pipeline stages that count one facet over the documents coming in, as `{_id: value, count}` largest
 * first, then by value.
 *
 * An unwound facet (`unwind: 'testOrders'`, path `testOrders.status`) is counted as MongoDB's `$unwind` +
 * `$group` would count it, but without one row per array element: the documents are first grouped by the
 * array of their values (`$testOrders.status`: a handful of distinct arrays), and only those groups are
 * unwound and summed. Same counts; on DocumentDB an `$unwind` of every document costs several times a `$group`.
 * An unwind path with a dot, or a facet path outside the unwound array, takes the plain `$unwind` + `$group`.
 */
export function facetStages(resource: ListResource, def: FacetDef): Record<string, unknown>[] {
  const path = facetPath(resource, def);
  const order = { $sort: { count: -1, _id: 1 } };
  if (!def.unwind) return [{ $group: { _id: `$${path}`, count: { $sum: 1 } } }, order];
  const u = def.unwind;
  if (u.includes('.') || !(path === u || path.startsWith(`${u}.`))) {
    return [{ $unwind: `$${u}` }, { $group: { _id: `$${path}`, count: { $sum: 1 } } }, order];
  }
  return [
    // group the documents by `$testOrders.status` first (few distinct values), then unwind the groups:
    // `$testOrders.status` is the array of the elements' values when testOrders is an array (elements without
    // the field left out); `$unwind` takes a non-array value as one element and drops a missing one, as null
    // would show in no facet. (2026-11-26: ~45 ms less a facet at 52,229 rows on DocumentDB than grouping on
    // `{value, $isArray}` and wrapping non-arrays, which gave the same counts.)
    { $group: { _id: `$${path}`, n: { $sum: 1 } } },
    { $unwind: '$_id' },
    { $group: { _id: '$_id', count: { $sum: '$n' } } },
    order,
  ];
}

/**
 * The inclusion projection of these paths, a parent replacing its children (MongoDB refuses a path and its
 * parent together). Dotted paths keep arrays of objects as arrays of the projected objects, so sorting and
 * grouping the projected rows answers as on the whole documents.
 */
function projectionOf(paths: string[]): Record<string, 1> {
  const kept: string[] = [];
  for (const p of [...new Set(paths)].sort((a, b) => a.length - b.length)) {
    if (!kept.some((k) => p === k || p.startsWith(`${k}.`))) kept.push(p);
  }
  return Object.fromEntries(kept.map((p) => [p, 1]));
}

/** The paths the facet stages read (the unwind path as well when it is the plain `$unwind`). */
function facetPaths(resource: ListResource, def: FacetDef): string[] {
  const path = facetPath(resource, def);
  return def.unwind && !(path === def.unwind || path.startsWith(`${def.unwind}.`))
    ? [path, def.unwind]
    : [path];
}

const itemsOf = (groups: Array<{ _id: unknown; count: number }>): Facet['items'] =>
  groups
    .filter((g) => g._id !== null && g._id !== undefined && g._id !== '')
    .map((g) => ({ value: g._id, count: g.count }));

/** One aggregate of a list: its answer is one `$facet` document, or (`branch`) that branch's rows alone. */
export interface ListAggregate {
  pipeline: Record<string, unknown>[];
  branch?: string;
}

/**
 * The aggregates of `facetPlan` (run them in parallel, then `listAnswer`): the main one (the page's ids and
 * the total when `withPage`, and the facets of unfiltered fields) and one per filtered facet field.
 */
export function listAggregates(
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
  withPage: boolean,
  withTotal = withPage,
): { defs: FacetDef[]; aggregates: ListAggregate[] } {
  const { defs, main, own } = facetPlan(resource, query, scope, names);
  const aggregates: ListAggregate[] = [];
  for (const [match, group, page, total] of [
    [main.match, main.defs, withPage, withTotal] as const,
    ...own.map((g) => [g.match, g.defs, false, false] as const),
  ]) {
    const branches: Record<string, unknown[]> = {};
    const paths: string[] = [];
    if (page) {
      branches.page = [
        { $sort: sortOf(query) },
        { $skip: query.page * query.perPage },
        { $limit: query.perPage },
        { $project: { _id: 1 } },
      ];
      paths.push(query.sort.path);
    }
    if (total) branches.total = [{ $count: 'n' }];
    for (const def of group) {
      branches[`f${defs.indexOf(def)}`] = facetStages(resource, def);
      paths.push(...facetPaths(resource, def));
    }
    const keys = Object.keys(branches);
    if (keys.length === 0) continue;
    if (keys.length === 1) {
      // one facet alone: no $facet (nothing to share), no $project (it would cost a pass of its own)
      aggregates.push({ pipeline: [{ $match: match }, ...(branches[keys[0]] as any[])], branch: keys[0] });
    } else {
      aggregates.push({
        pipeline: [{ $match: match }, { $project: projectionOf(paths) }, { $facet: branches }],
      });
    }
  }
  return { defs, aggregates };
}

/** The total, the page's ids and the facets from the answers of `listAggregates` (rows of each, in order). */
export function listAnswer(
  defs: FacetDef[],
  aggregates: ListAggregate[],
  answers: Array<Array<Record<string, any>>>,
): { total: number; pageIds: unknown[]; facets: Facet[] } {
  const all: Record<string, any> = Object.assign(
    {},
    ...aggregates.map((a, i) => (a.branch ? { [a.branch]: answers[i] } : (answers[i][0] ?? {}))),
  );
  return {
    total: all.total?.[0]?.n ?? 0,
    pageIds: (all.page ?? []).map((d: { _id: unknown }) => d._id),
    facets: defs.map((def, i) => ({ name: def.name, items: itemsOf(all[`f${i}`] ?? []) })),
  };
}

async function listQueries(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
  withPage: boolean,
) {
  const { defs, aggregates } = listAggregates(resource, query, scope, names, withPage);
  const answers = await Promise.all(aggregates.map((a) => model.aggregate(a.pipeline as any[]).exec()));
  return listAnswer(defs, aggregates, answers);
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
