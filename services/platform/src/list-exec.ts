import type { Model } from 'mongoose';
import type { FastifyReply } from 'fastify';
import {
  buildMatch,
  type Facet,
  type FacetDef,
  type Filter,
  type ListQuery,
  type ListResource,
  type ListResult,
} from './list-query';
import { toApi } from './records';

export interface RunListOptions<T> {
  projection?: Record<string, 0 | 1>;
  map?: (doc: any) => T;
  /**
   * A slim read model of `model` (same `_id`s and the same paths for every filter, sort, search and facet
   * field): the one scan reads it; the page's rows are still read from `model` by `_id`.
   */
  scanModel?: Model<any>;
  /**
   * Or every row of such a read model, already decoded: the whole match (scope, soft delete, filters, search)
   * is then applied in Node (`matchesQuery`), for read models the database cannot look into.
   */
  scanRows?: () => Promise<Array<Record<string, any>>>;
}

type ScanSource = Model<any> | (() => Promise<Array<Record<string, any>>>);

/**
 * Run a parsed list query against a model: rows, total and the asked-for facets.
 *
 * With facets (or a slim scan model) the whole answer comes from ONE scan (see `scanList`): FerretDB v1 on
 * SQLite pushes down only an `_id` equality, so every other find, count or aggregate decodes every document of
 * the collection; one scan instead of 2 + one per facet is what keeps a large list answering in seconds.
 * Without facets it is the page and the count, in parallel.
 */
export async function runList<T = Record<string, unknown>>(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  opts: RunListOptions<T> = {},
): Promise<ListResult<T>> {
  const map = opts.map ?? ((d: any) => toApi(d) as T);
  if (query.facets.length || opts.scanModel || opts.scanRows) {
    const source = opts.scanRows ?? opts.scanModel ?? model;
    const scan = await scanList(source, resource, query, scope, query.facets, true);
    const rows = await readByIds(model, scan.pageIds, opts.projection ?? { outbox: 0 });
    return {
      content: rows.map(map),
      totalElements: scan.total,
      ...(query.facets.length ? { facets: scan.facets } : {}),
    };
  }
  const match = buildMatch(resource, query, scope);
  const dir = query.sort.order === 'asc' ? 1 : -1;
  const [rows, total] = await Promise.all([
    model
      .find(match, opts.projection ?? { outbox: 0 })
      .sort({ [query.sort.path]: dir, _id: dir })
      .skip(query.page * query.perPage)
      .limit(query.perPage)
      .lean()
      .exec(),
    model.countDocuments(match).exec(),
  ]);
  return { content: rows.map(map), totalElements: total };
}

/** The named facets of a list query (one scan for all of them). */
export async function runFacets(
  model: Model<any>,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  names: string[],
  opts: Pick<RunListOptions<unknown>, 'scanModel' | 'scanRows'> = {},
): Promise<Facet[]> {
  const source = opts.scanRows ?? opts.scanModel ?? model;
  return (await scanList(source, resource, query, scope, names, false)).facets;
}

/** Read documents by `_id` one by one (each an `_id` equality, which FerretDB's SQLite backend pushes down), in order. */
async function readByIds(model: Model<any>, ids: unknown[], projection: Record<string, 0 | 1>) {
  const docs = await Promise.all(ids.map((id) => model.findOne({ _id: id }, projection).lean().exec()));
  return docs.filter((d) => d !== null && d !== undefined);
}

/** What the one scan asks the database: the match without the asked-for facets' filters, and the fields. */
export function scanPlan(
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  facetNames: string[],
  withPage: boolean,
) {
  const defs = (resource.facets ?? []).filter((f) => facetNames.includes(f.name));
  const facetFields = new Set(defs.map((d) => d.field));
  const late = query.filters.filter((f) => facetFields.has(f.field));
  const match = buildMatch(
    resource,
    { ...query, filters: query.filters.filter((f) => !late.includes(f)) },
    scope,
  );
  const groupPaths = defs.map((d) => d.path ?? resource.fields[d.field]?.path ?? d.field);
  const paths = ['_id', ...late.map((f) => f.path), ...groupPaths, ...defs.flatMap((d) => d.unwind ?? [])];
  if (withPage) paths.push(query.sort.path);
  // whole top-level fields: a dotted projection through arrays is where FerretDB v1 and MongoDB differ
  const projection: Record<string, 1> = {};
  for (const p of paths) projection[p.split('.')[0]] = 1;
  return { defs, late, groupPaths, match, projection };
}

/**
 * The list in one scan. The database applies the scope, the soft-delete rule, the search and every filter that
 * no asked-for facet narrows; only the fields the rest needs come back. Node then applies the facet fields'
 * filters (the same eq/in/!in/between as `buildMatch`, with MongoDB's array semantics), so that
 *  - the total and the page count the rows passing every filter,
 *  - each facet counts the rows passing every filter but its own (multi-select), grouped by its path after
 *    the unwind, largest first then by value, without null/empty values,
 * which is exactly what the page + count + one `$group` per facet returned.
 */
export async function scanList(
  source: ScanSource,
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  facetNames: string[],
  withPage: boolean,
): Promise<{ total: number; pageIds: unknown[]; facets: Facet[] }> {
  const { defs, late, groupPaths, match, projection } = scanPlan(
    resource,
    query,
    scope,
    facetNames,
    withPage,
  );
  const want = withPage ? query.page * query.perPage + query.perPage : 0;
  let answer: ScanAnswer;
  if (typeof source === 'function' && !('find' in source)) {
    const rows = await source();
    // the same rows (the same array object: no row changed since) and the same question: the same answer.
    // The page is not part of the question: an answer keeps the first ORDERED_DEPTH rows in order (more when
    // a later page was asked), so paging through a list costs one scan.
    let results = resultCache.get(rows);
    if (!results) resultCache.set(rows, (results = new Map()));
    const key = cacheKey([match, late, defs.map((d) => d.name), withPage && query.sort]);
    const hit = results.get(key);
    if (hit && (hit.ordered.length >= want || hit.ordered.length >= hit.total)) answer = hit;
    else {
      listScanStats.rowScans++;
      answer = answerFrom(
        rows.filter((d) => matchesQuery(d, match)),
        query,
        withPage ? Math.max(want, ORDERED_DEPTH) : 0,
        defs,
        late,
        groupPaths,
      );
      results.delete(key);
      if (results.size >= RESULT_CACHE_SIZE) results.delete(results.keys().next().value!);
      results.set(key, answer);
    }
  } else {
    const docs: any[] = await (source as Model<any>).find(match, projection).lean().exec();
    answer = answerFrom(docs, query, want, defs, late, groupPaths);
  }
  const start = query.page * query.perPage;
  return {
    total: answer.total,
    facets: answer.facets,
    pageIds: withPage ? answer.ordered.slice(start, start + query.perPage) : [],
  };
}

/** How many scans of decoded rows (`scanRows`) this process made: answers not reused (benchmarks, tests). */
export const listScanStats = { rowScans: 0 };
/** Answers per row snapshot (see RunListOptions.scanRows), at most this many questions each, oldest dropped. */
const RESULT_CACHE_SIZE = 500;
/** how many rows of a list an answer keeps in order (66 pages of 15) */
const ORDERED_DEPTH = 1000;
/** the total, the facets and the first `ordered` row ids in list order */
type ScanAnswer = { total: number; ordered: unknown[]; facets: Facet[] };
const resultCache = new WeakMap<object, Map<string, ScanAnswer>>();

/** A query's identity: JSON with dates and regular expressions told apart from strings. */
function cacheKey(v: unknown): string {
  return JSON.stringify(v, function (this: any, k: string, x: unknown) {
    const raw = this[k];
    if (raw instanceof Date) return { $date: raw.getTime() };
    if (raw instanceof RegExp) return { $regex: raw.source, $flags: raw.flags };
    return x;
  });
}

/** The answer from the rows the database matched: `want` first rows in order (0: no page asked). */
function answerFrom(
  docs: any[],
  query: ListQuery,
  want: number,
  defs: FacetDef[],
  late: Filter[],
  groupPaths: string[],
): ScanAnswer {
  // which late filters each row fails, as bits by field (a facet counts the rows failing none but its own)
  const fields = [...new Set(late.map((f) => f.field))];
  const bitOf = late.map((f) => 2 ** fields.indexOf(f.field));
  const failing = new Float64Array(docs.length);
  if (late.length)
    for (let i = 0; i < docs.length; i++) {
      let bits = 0;
      for (let j = 0; j < late.length; j++) if (!matchesFilter(docs[i], late[j])) bits |= bitOf[j];
      failing[i] = bits;
    }

  const facets = defs.map((def, k) => {
    const own = fields.includes(def.field) ? 2 ** fields.indexOf(def.field) : 0;
    return facetOf(def, groupPaths[k], docs, failing, own);
  });

  let total = 0;
  const rows: any[] = [];
  for (let i = 0; i < docs.length; i++) {
    if (failing[i] !== 0) continue;
    total++;
    if (want) rows.push(docs[i]);
  }
  let ordered: unknown[] = [];
  if (want) {
    const dir = query.sort.order === 'asc' ? 1 : -1;
    // the first `want` rows in order, without sorting them all
    const order = (a: { key: unknown; id: unknown }, b: { key: unknown; id: unknown }) =>
      dir * (compareBson(a.key, b.key) || compareBson(a.id, b.id));
    let keyed: Array<{ key: unknown; id: unknown }> = [];
    if (want > 1000) {
      keyed = rows.map((d) => ({ key: sortKey(valuesAt(d, query.sort.path), dir), id: d._id }));
      keyed.sort(order);
    } else
      for (const d of rows) {
        const r = { key: sortKey(valuesAt(d, query.sort.path), dir), id: d._id };
        if (keyed.length === want && order(r, keyed[want - 1]) >= 0) continue;
        let lo = 0;
        let hi = keyed.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (order(keyed[mid], r) <= 0) lo = mid + 1;
          else hi = mid;
        }
        keyed.splice(lo, 0, r);
        if (keyed.length > want) keyed.pop();
      }
    ordered = keyed.slice(0, want).map((r) => r.id);
  }
  return { total, ordered, facets };
}

/**
 * One facet's groups over the rows that fail no late filter but the facet's own (`own`: its bit in `failing`).
 * Groups are keyed by the value itself when it is a string, number or boolean (a Map tells 1 from '1'), by
 * its type and content otherwise (a date and a string never fall into one group).
 */
function facetOf(def: FacetDef, path: string, docs: any[], failing: Float64Array, own: number): Facet {
  type Group = { value: unknown; count: number };
  const groups = new Map<unknown, Group>();
  const byContent = new Map<string, Group>();
  const add = (v: unknown) => {
    const value = v === undefined ? null : v;
    let g: Group | undefined;
    if (value !== null && typeof value === 'object') {
      const k = groupKey(value);
      g = byContent.get(k);
      if (!g) byContent.set(k, (g = { value, count: 0 }));
    } else {
      g = groups.get(value);
      if (!g) groups.set(value, (g = { value, count: 0 }));
    }
    g.count++;
  };
  const rest = !def.unwind
    ? null
    : path === def.unwind
      ? ''
      : path.startsWith(`${def.unwind}.`)
        ? path.slice(def.unwind.length + 1)
        : null;
  const pathKeys = splitPath(path);
  const unwindKeys = def.unwind ? splitPath(def.unwind) : [];
  const restKeys = rest === null ? null : rest === '' ? [] : splitPath(rest);
  for (let i = 0; i < docs.length; i++) {
    if (failing[i] !== 0 && (failing[i] | own) !== own) continue;
    const doc = docs[i];
    if (!def.unwind) {
      add(valueAt(doc, pathKeys));
      continue;
    }
    const arr = valueAt(doc, unwindKeys);
    if (arr === null || arr === undefined) continue;
    const elements = Array.isArray(arr) ? arr : [arr];
    for (const el of elements)
      add(restKeys === null ? valueAt(doc, pathKeys) : restKeys.length === 0 ? el : valueAt(el, restKeys));
  }
  return {
    name: def.name,
    items: [...groups.values(), ...byContent.values()]
      .filter((g) => g.value !== null && g.value !== '')
      .sort((a, b) => b.count - a.count || compareBson(a.value, b.value))
      .map((g) => ({ value: g.value, count: g.count })),
  };
}

/** `$group`'s key of a date or an object: its type and content. */
function groupKey(v: object): string {
  if (v instanceof Date) return `d:${v.getTime()}`;
  return `o:${JSON.stringify(v)}`;
}

/** The value at a dotted path, not descending into arrays (what `$group: {_id: '$a.b'}` sees for objects). */
function valueAt(doc: any, path: string | string[]): unknown {
  const keys = typeof path === 'string' ? splitPath(path) : path;
  let v = doc;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (v === null || v === undefined) return undefined;
    if (Array.isArray(v)) return v.map((e) => (e === null || typeof e !== 'object' ? undefined : e[k]));
    v = v[k];
  }
  return v;
}

/**
 * Every value a query on a dotted path compares with (MongoDB semantics): arrays on the way are descended into,
 * and an array at the end gives its elements (and itself). A missing value is `undefined`.
 */
export function valuesAt(doc: unknown, path: string): unknown[] {
  const keys = splitPath(path);
  // the common case: no array on the way
  let v: any = doc;
  for (let at = 0; at < keys.length; at++) {
    if (Array.isArray(v)) {
      const out: unknown[] = [];
      walkValues(v, keys, at, out);
      return out;
    }
    if (v === null || v === undefined || typeof v !== 'object') return [undefined];
    v = v[keys[at]];
  }
  return Array.isArray(v) ? [...v, v] : [v];
}

function walkValues(v: any, keys: string[], at: number, out: unknown[]): void {
  if (at === keys.length) {
    if (Array.isArray(v)) out.push(...v, v);
    else out.push(v);
    return;
  }
  if (Array.isArray(v)) {
    let objects = 0;
    for (const e of v) {
      if (e !== null && typeof e === 'object' && !Array.isArray(e)) {
        objects++;
        walkValues(e, keys, at, out);
      }
    }
    if (objects === 0) out.push(undefined);
    return;
  }
  if (v === null || v === undefined || typeof v !== 'object') {
    out.push(undefined);
    return;
  }
  walkValues(v[keys[at]], keys, at + 1, out);
}

const splitCache = new Map<string, string[]>();
function splitPath(path: string): string[] {
  let keys = splitCache.get(path);
  if (!keys) {
    keys = path.split('.');
    if (splitCache.size < 10_000) splitCache.set(path, keys);
  }
  return keys;
}

function equalsValue(a: unknown, b: unknown): boolean {
  if (b === null) return a === null || a === undefined;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

/** One list filter (eq, in, !in, between: see list-query's filterToMongo) applied to a document in Node. */
export function matchesFilter(doc: unknown, f: Filter): boolean {
  const vs = valuesAt(doc, f.path);
  switch (f.op) {
    case 'eq':
      return vs.some((v) => equalsValue(v, f.values[0]));
    case 'in':
      return vs.some((v) => f.values.some((x) => equalsValue(v, x)));
    case 'nin':
      return !vs.some((v) => f.values.some((x) => equalsValue(v, x)));
    case 'between':
      return vs.some(
        (v) =>
          v !== undefined &&
          rank(v) === rank(f.values[0]) &&
          rank(v) === rank(f.values[1]) &&
          compareBson(v, f.values[0]) >= 0 &&
          compareBson(v, f.values[1]) <= 0,
      );
  }
}

/**
 * A MongoDB query document (what `buildMatch` and `scopeFilter` produce: $and, $or, $nor, equality, $eq, $ne,
 * $in, $nin, $gt, $gte, $lt, $lte, $exists, regular expressions) applied to a document in Node, with the same
 * array semantics as `matchesFilter`. Any other operator is a programming error and throws.
 */
export function matchesQuery(doc: unknown, q: Record<string, unknown>): boolean {
  for (const key in q) {
    const cond = q[key];
    if (key === '$and') {
      for (const c of cond as Array<Record<string, unknown>>) if (!matchesQuery(doc, c)) return false;
    } else if (key === '$or') {
      let any = false;
      for (const c of cond as Array<Record<string, unknown>>) if ((any = matchesQuery(doc, c))) break;
      if (!any) return false;
    } else if (key === '$nor') {
      for (const c of cond as Array<Record<string, unknown>>) if (matchesQuery(doc, c)) return false;
    } else if (key.charCodeAt(0) === 36 /* $ */) {
      throw new Error(`matchesQuery: unsupported operator ${key}`);
    } else if (!matchesCondition(valuesAt(doc, key), cond)) return false;
  }
  return true;
}

function someEqual(vs: unknown[], x: unknown): boolean {
  for (let i = 0; i < vs.length; i++) if (equalsValue(vs[i], x)) return true;
  return false;
}

function someIn(vs: unknown[], xs: unknown[], regexps: boolean): boolean {
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    for (let j = 0; j < xs.length; j++) {
      const y = xs[j];
      if (regexps && y instanceof RegExp ? typeof v === 'string' && y.test(v) : equalsValue(v, y))
        return true;
    }
  }
  return false;
}

/** Some value of the same BSON type as x compares to it as `accept` wants. */
function someCompared(vs: unknown[], x: unknown, accept: (c: number) => boolean): boolean {
  const rx = rank(x);
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i];
    if (v !== undefined && rank(v) === rx && accept(compareBson(v, x))) return true;
  }
  return false;
}
const GT = (c: number) => c > 0;
const GTE = (c: number) => c >= 0;
const LT = (c: number) => c < 0;
const LTE = (c: number) => c <= 0;

function isOperatorObject(cond: unknown): cond is Record<string, unknown> {
  if (cond === null || typeof cond !== 'object' || cond instanceof Date || Array.isArray(cond)) return false;
  let n = 0;
  for (const k in cond) {
    if (k.charCodeAt(0) !== 36 /* $ */) return false;
    n++;
  }
  return n > 0;
}

function matchesCondition(vs: unknown[], cond: unknown): boolean {
  if (cond instanceof RegExp) {
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i];
      if (typeof v === 'string' && cond.test(v)) return true;
    }
    return false;
  }
  if (!isOperatorObject(cond)) return someEqual(vs, cond);
  for (const op in cond) {
    const x = cond[op];
    let ok: boolean;
    switch (op) {
      case '$eq':
        ok = someEqual(vs, x);
        break;
      case '$ne':
        ok = !someEqual(vs, x);
        break;
      case '$in':
        ok = someIn(vs, x as unknown[], true);
        break;
      case '$nin':
        ok = !someIn(vs, x as unknown[], false);
        break;
      case '$gt':
        ok = someCompared(vs, x, GT);
        break;
      case '$gte':
        ok = someCompared(vs, x, GTE);
        break;
      case '$lt':
        ok = someCompared(vs, x, LT);
        break;
      case '$lte':
        ok = someCompared(vs, x, LTE);
        break;
      case '$exists': {
        let present = false;
        for (let i = 0; i < vs.length && !present; i++) present = vs[i] !== undefined;
        ok = present === Boolean(x);
        break;
      }
      default:
        throw new Error(`matchesQuery: unsupported operator ${op}`);
    }
    if (!ok) return false;
  }
  return true;
}

/** A sort key as MongoDB takes it: an array sorts by its smallest element ascending, its largest descending. */
function sortKey(values: unknown[], dir: 1 | -1): unknown {
  const scalars = values.filter((v) => !Array.isArray(v));
  if (scalars.length <= 1) return scalars[0] ?? null;
  return scalars.reduce((best, v) => (dir * compareBson(v, best) < 0 ? v : best));
}

/** BSON comparison order: null (and missing) < numbers < strings < objects < ObjectId < booleans < dates. */
function rank(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'number' || typeof v === 'bigint') return 2;
  if (typeof v === 'string') return 3;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  if ((v as any)?._bsontype === 'ObjectId') return 7;
  if (Array.isArray(v)) return 5;
  return 4;
}

export function compareBson(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 1:
      return 0;
    case 2:
      return Number(a) - Number(b);
    case 3:
      return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
    case 8:
      return Number(a) - Number(b);
    case 9:
      return (a as Date).getTime() - (b as Date).getTime();
    case 7: {
      const [x, y] = [String(a), String(b)];
      return x === y ? 0 : x < y ? -1 : 1;
    }
    default: {
      const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
      return x === y ? 0 : x < y ? -1 : 1;
    }
  }
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
