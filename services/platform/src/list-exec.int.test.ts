import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { connectMongo } from './connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';
import { runFacets, runList } from './list-exec';
import { DEFAULT_LIST_COUNTS_POLICY, configureListCounts } from './list-counts';
import { declareOrderedIndex, ensureOrderedIndexes, orderedHint } from './ordered-indexes';
import pino from 'pino';
import { parseListQuery, type Filter, type ListQuery, type ListResource } from './list-query';

/**
 * The list engine against the real store: for many queries over awkward data (arrays of objects, arrays with
 * nulls and scalars in them, an object where an array is expected, missing fields, nulls, equal dates, deleted
 * rows), the list's total, page and every facet must equal what this file computes by brute force from all the
 * documents with MongoDB's query, sort, `$unwind` and `$group` semantics.
 */
const suffix = randomBytes(4).toString('hex');
const MONGO = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_listexec_${suffix}`);
let mongo: Connection;
let Row: Model<any>;
let ALL: Array<Record<string, any>>;

const resource: ListResource = {
  name: 'rows',
  fields: {
    status: { type: 'string', filter: true, sort: true },
    review: { type: 'string', path: 'review.status', filter: true, sort: true },
    accountName: { type: 'string', path: 'account.name', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    testStatus: { type: 'string', path: 'tests.status', filter: true },
    testType: { type: 'string', path: 'tests.type', filter: true },
    sample: { type: 'string', path: 'samples', filter: true },
    rank: { type: 'number', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['account.name', 'name', 'tests.type'],
  facets: [
    { name: 'status_facet', field: 'status' },
    { name: 'review_facet', field: 'review' },
    { name: 'account_facet', field: 'accountName' },
    { name: 'rank_facet', field: 'rank' },
    { name: 'test_status_facet', field: 'testStatus', unwind: 'tests' },
    { name: 'test_type_facet', field: 'testType', unwind: 'tests' },
    { name: 'sample_facet', field: 'sample', unwind: 'samples' },
  ],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 7,
  deletedField: 'deleted',
};

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

beforeAll(async () => {
  mongo = await connectMongo(MONGO);
  Row = mongo.model('Row', new Schema({ _id: String }, { strict: false, versionKey: false }), 'rows');
  const base = Date.UTC(2024, 0, 1);
  ALL = Array.from({ length: 240 }, (_, i) => {
    const doc: Record<string, unknown> = {
      _id: `r${String(i).padStart(3, '0')}`,
      name: pick(['Ann Lee', 'Bob Stone', 'Cy Twombly', 'Dora Maar', 'STONEY']),
      status: pick(['DRAFT', 'SUBMITTED', 'SUBMITTED', '', null]),
      review: pick([{ status: 'NEEDS_REVIEW' }, { status: 'DONE' }, { status: null }, {}, null]),
      account: pick([
        { id: 'a1', name: 'Mercy' },
        { id: 'a2', name: 'St. Luke' },
        { id: 'a3', name: null },
        { id: 'a4', name: 'Stonebridge' },
        null,
      ]),
      owner: pick(['u1', 'u2', null]),
      tests: pick([
        [],
        [{ status: 'IN_PROGRESS', type: 'DX' }],
        [
          { status: 'COMPLETE', type: 'DX' },
          { status: 'IN_PROGRESS', type: 'PDX' },
        ],
        [{ status: 'COMPLETE', type: 'PDX' }, { type: 'DX' }],
        [{ status: 'IN_PROGRESS', type: 'DX' }, null, 'stray'],
        [
          { status: 'COMPLETE', type: 'DX' },
          { status: 'COMPLETE', type: 'DX' },
        ],
        { status: 'CANCELLED', type: 'PDX' }, // an object where an array is expected: $unwind takes it as one
        null,
      ]),
      samples: pick([[], ['PROCEED'], ['PROCEED', 'ON_HOLD'], ['CANCELLED'], 'PROCEED', [null, 'ON_HOLD']]),
      rank: pick([1, 2, 2, 3.5, null]),
      // few distinct dates: many equal sort keys, broken by _id
      updatedOn: new Date(base + Math.floor(rand() * 12) * 86400000),
      deleted: rand() < 0.1,
    };
    for (const k of ['review', 'rank', 'samples', 'tests', 'updatedOn', 'account'])
      if (rand() < 0.06) delete doc[k]; // missing entirely
    return doc;
  });
  await Row.collection.insertMany(ALL as any[]);
  await Row.collection.createIndexes([
    { key: { status: 1, updatedOn: -1, _id: -1 } },
    { key: { 'account.id': 1 } },
    { key: { 'tests.status': 1 } },
  ]);
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

// ---------------------------------------------------------------------------------------------------------
// MongoDB semantics, by brute force over the documents

/** Every value a query on a dotted path compares with: arrays on the way are descended into; an array at the
 * end gives its elements and itself; a missing value is `undefined`. */
function valuesAt(v: unknown, keys: string[]): unknown[] {
  if (keys.length === 0) return Array.isArray(v) ? [...v, v] : [v];
  if (Array.isArray(v)) {
    const objects = v.filter((e) => e !== null && typeof e === 'object' && !Array.isArray(e));
    return objects.length ? objects.flatMap((e) => valuesAt(e, keys)) : [undefined];
  }
  if (v === null || v === undefined || typeof v !== 'object' || v instanceof Date) return [undefined];
  return valuesAt((v as Record<string, unknown>)[keys[0]], keys.slice(1));
}
const at = (doc: unknown, path: string) => valuesAt(doc, path.split('.'));

/** BSON order of the types met here: null < numbers < strings < objects < arrays < booleans < dates. */
function rank(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (Array.isArray(v)) return 5;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  return 4;
}
function compare(a: unknown, b: unknown): number {
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0;
  return 0;
}
const same = (a: unknown, b: unknown) =>
  b === null ? a === null || a === undefined : rank(a) === rank(b) && compare(a, b) === 0;

function passes(doc: unknown, f: Filter): boolean {
  const vs = at(doc, f.path);
  switch (f.op) {
    case 'eq':
      return vs.some((v) => same(v, f.values[0]));
    case 'in':
      return vs.some((v) => f.values.some((x) => same(v, x)));
    case 'nin':
      return !vs.some((v) => f.values.some((x) => same(v, x)));
    case 'between':
      return vs.some(
        (v) =>
          v !== undefined &&
          v !== null &&
          rank(v) === rank(f.values[0]) &&
          compare(v, f.values[0]) >= 0 &&
          compare(v, f.values[1]) <= 0,
      );
  }
}

type Scope = (doc: any) => boolean;
const SCOPES: Array<[string, Record<string, unknown>, Scope]> = [
  ['every account', {}, () => true],
  [
    'accounts a1, a2 or owner u1',
    { $or: [{ 'account.id': { $in: ['a1', 'a2'] } }, { owner: 'u1' }] },
    (d) => at(d, 'account.id').some((v) => v === 'a1' || v === 'a2') || d.owner === 'u1',
  ],
];

/** The rows passing the scope, the soft delete, the search and every filter but those of `except`. */
function matching(query: ListQuery, scope: Scope, except?: string) {
  return ALL.filter(
    (d) =>
      scope(d) &&
      (query.includeDeleted || d.deleted !== true) &&
      query.filters.every((f) => f.field === except || passes(d, f)) &&
      (!query.q ||
        resource.search.some((p) =>
          at(d, p).some((v) => typeof v === 'string' && v.toLowerCase().includes(query.q!.toLowerCase())),
        )),
  );
}

/** A sort key as MongoDB takes it: an array sorts by its smallest element ascending, its largest descending. */
function sortKey(doc: unknown, path: string, dir: number): unknown {
  const vs = at(doc, path).filter((v) => !Array.isArray(v));
  if (vs.length <= 1) return vs[0] ?? null;
  return vs.reduce((best, v) => (dir * compare(v, best) < 0 ? v : best));
}

/** `$unwind` (when the facet has one) then `$group` by the path: the values a facet counts in one document. */
function facetValues(doc: Record<string, any>, path: string, unwind?: string): unknown[] {
  const own = (v: unknown, keys: string[]): unknown =>
    keys.reduce<any>(
      (o, k) => (o !== null && typeof o === 'object' && !Array.isArray(o) ? o[k] : undefined),
      v,
    );
  if (!unwind) return [own(doc, path.split('.'))];
  const arr = doc[unwind];
  if (arr === null || arr === undefined) return [];
  const rest = path === unwind ? [] : path.slice(unwind.length + 1).split('.');
  return (Array.isArray(arr) ? arr : [arr]).map((e) => (rest.length ? own(e, rest) : e));
}

function bruteForce(query: ListQuery, scope: Scope, names = query.facets) {
  const rows = matching(query, scope);
  const dir = query.sort.order === 'asc' ? 1 : -1;
  const ordered = [...rows].sort(
    (a, b) =>
      dir * compare(sortKey(a, query.sort.path, dir), sortKey(b, query.sort.path, dir)) ||
      dir * compare(a._id, b._id),
  );
  const start = query.page * query.perPage;
  const facets = (resource.facets ?? [])
    .filter((f) => names.includes(f.name))
    .map((def) => {
      const path = def.path ?? resource.fields[def.field]?.path ?? def.field;
      const counts: Array<{ value: unknown; count: number }> = [];
      for (const d of matching(query, scope, def.field))
        for (const v of facetValues(d, path, def.unwind)) {
          if (v === null || v === undefined || v === '') continue;
          const g = counts.find((c) => same(c.value, v));
          if (g) g.count++;
          else counts.push({ value: v, count: 1 });
        }
      counts.sort((a, b) => b.count - a.count || compare(a.value, b.value));
      return { name: def.name, items: counts };
    });
  return {
    total: rows.length,
    ids: ordered.slice(start, start + query.perPage).map((d) => d._id),
    facets,
  };
}

// ---------------------------------------------------------------------------------------------------------

const day = (n: number) => Date.UTC(2024, 0, n);
const QUERIES: Array<Record<string, unknown>> = [
  {},
  { filter: JSON.stringify({ status: 'eq(SUBMITTED)' }) },
  { filter: JSON.stringify({ status: ['SUBMITTED', 'DRAFT'] }), sort: 'updatedOn,ASC' },
  { filter: JSON.stringify({ testStatus: 'in(IN_PROGRESS,COMPLETE)' }), sort: 'updatedOn,DESC' },
  { filter: JSON.stringify({ testStatus: 'IN_PROGRESS', testType: 'DX' }), sort: 'accountName,ASC' },
  { filter: JSON.stringify({ sample: '!in(PROCEED)' }), sort: 'rank,DESC', page: '1' },
  { filter: JSON.stringify({ testStatus: '!in(COMPLETE,CANCELLED)' }), sort: 'status,DESC' },
  { filter: JSON.stringify({ review: 'in(NEEDS_REVIEW,DONE)', accountName: 'Mercy' }), sort: 'review,ASC' },
  { filter: JSON.stringify({ review: null }), sort: 'review,DESC' },
  { filter: JSON.stringify({ status: 'SUBMITTED', accountId: 'a2' }), q: 'stone', sort: 'status,ASC' },
  { q: 'STONE', sort: 'accountName,DESC', perPage: '5', page: '2' },
  { q: 'pdx', filter: JSON.stringify({ testStatus: 'COMPLETE' }) },
  { filter: JSON.stringify({ rank: 'between(1,2)', testType: '!in(PDX)' }), sort: 'rank,ASC', page: '2' },
  {
    filter: JSON.stringify({
      updatedOn: `between(${day(3)},${day(8)})`,
      sample: 'in(ON_HOLD,CANCELLED)',
    }),
    sort: 'updatedOn,ASC',
  },
  { filter: JSON.stringify({ deleted: 'true', status: '!in(DRAFT)' }), sort: 'accountName,DESC' },
  { filter: JSON.stringify({ accountName: 'in(Mercy,St. Luke)', testStatus: '!in(COMPLETE)' }), page: '3' },
  { filter: JSON.stringify({ id: 'in(r001,r002,r003,r150)' }), sort: 'id,DESC' },
  { range: '[10,29]', sort: '["rank","ASC"]', filter: JSON.stringify({ sample: ['PROCEED'] }) },
];

describe('list engine: total, page and facets from the database equal a brute-force answer', () => {
  it.each(QUERIES.map((q, i) => [i, q] as const))('query %i', async (_i, qs) => {
    for (const [, scope, inScope] of SCOPES) {
      const query = parseListQuery(resource, { ...qs, facets: 'true' });
      const want = bruteForce(query, inScope);
      // rows, total and facets
      const got = await runList(Row, resource, query, scope);
      expect(got.totalElements).toBe(want.total);
      expect(got.content.map((r: any) => r.id)).toEqual(want.ids);
      expect(got.facets).toEqual(want.facets);
      // without facets (the rows request of the console): the page and the total alone
      const plain = await runList(Row, resource, { ...query, facets: [] }, scope);
      expect(plain.totalElements).toBe(want.total);
      expect(plain.content.map((r: any) => r.id)).toEqual(want.ids);
      expect(plain.facets).toBeUndefined();
      // some facets only, through the facets route's entry point (one facet alone, and a few)
      for (const names of [['test_status_facet'], ['sample_facet', 'account_facet', 'rank_facet']]) {
        expect(await runFacets(Row, resource, { ...query, facets: names }, scope, names)).toEqual(
          bruteForce(query, inScope, names).facets,
        );
      }
    }
  });

  it('returns the whole documents of the page (the projection of the aggregate is not what the rows show)', async () => {
    const query = parseListQuery(resource, { facets: 'status_facet', sort: 'rank,DESC' });
    const got = await runList(Row, resource, query, {});
    const first: any = got.content[0];
    const doc = ALL.find((d) => d._id === first.id)!;
    expect(first.name).toBe(doc.name);
    expect(first.tests ?? null).toEqual(doc.tests ?? null);
  });

  it('counts each facet with every filter but its own (multi-select), the total and page with all of them', async () => {
    const query = parseListQuery(resource, {
      filter: JSON.stringify({ status: 'SUBMITTED', testStatus: 'IN_PROGRESS', sample: 'in(PROCEED)' }),
      facets: 'true',
    });
    const got = await runList(Row, resource, query, {});
    const facet = (name: string) => got.facets!.find((f) => f.name === name)!.items;
    const only = (filters: Filter[]) => ({ ...query, filters });
    const [status, testStatus, sample] = query.filters;
    const all = () => true;
    // the status facet: every status, counted over the rows with the test status and sample filters
    expect(facet('status_facet')).toEqual(
      bruteForce(only([testStatus, sample]), all, ['status_facet']).facets[0].items,
    );
    expect(facet('status_facet').map((i) => i.value)).toContain('DRAFT');
    // the test status facet: every test status of the SUBMITTED rows with a PROCEED sample
    expect(facet('test_status_facet')).toEqual(
      bruteForce(only([status, sample]), all, ['test_status_facet']).facets[0].items,
    );
    expect(facet('test_status_facet').map((i) => i.value)).toContain('COMPLETE');
    // the sample facet: without its own filter
    expect(facet('sample_facet')).toEqual(
      bruteForce(only([status, testStatus]), all, ['sample_facet']).facets[0].items,
    );
    expect(facet('sample_facet').map((i) => i.value)).toContain('ON_HOLD');
    // an unfiltered facet: all three filters; the total: all three
    const rows = matching(query, all);
    const mercy = rows.filter((d) => d.account?.name === 'Mercy').length;
    expect(facet('account_facet').find((i) => i.value === 'Mercy')?.count ?? 0).toBe(mercy);
    expect(got.totalElements).toBe(rows.length);
    // test type is another field on the same array: the test status filter applies to it
    const dx = rows.flatMap((d) => facetValues(d, 'tests.type', 'tests')).filter((v) => v === 'DX').length;
    expect(facet('test_type_facet').find((i) => i.value === 'DX')?.count ?? 0).toBe(dx);
  });
});

describe('a large list: its counts kept briefly, its page always read fresh (LIST_COUNTS_*)', () => {
  afterAll(() => configureListCounts(DEFAULT_LIST_COUNTS_POLICY));

  it('with kept counts the page comes from its own ordered read and still equals the brute-force answer', async () => {
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1 });
    // the newest-first sort gets its index-ordered index (DocumentDB: built by the ordered-index login)
    declareOrderedIndex('rows', { updatedOn: -1, _id: -1 });
    await ensureOrderedIndexes(mongo, { mongoUrl: MONGO, logger: pino({ level: 'silent' }) });
    expect(orderedHint(mongo.db!.databaseName, 'rows', { updatedOn: -1, _id: -1 })).toBe(
      'updatedOn_-1__id_-1',
    );
    expect(orderedHint(mongo.db!.databaseName, 'rows', { updatedOn: 1, _id: 1 })).toBeUndefined();
    for (const qs of QUERIES) {
      const query = parseListQuery(resource, { ...qs, facets: 'true' });
      const want = bruteForce(query, () => true);
      for (let round = 0; round < 2; round++) {
        // round 0 counts (and keeps the counts of a non-empty list), round 1 reads the page alone
        const got = await runList(Row, resource, query, {});
        expect(got.content.map((r: any) => r.id)).toEqual(want.ids);
        expect(got.totalElements).toBe(want.total);
        expect(got.facets).toEqual(want.facets);
      }
    }
  });

  it('serves kept counts within the TTL while the rows change; a small list is always exact', async () => {
    const c = mongo.db!.collection<any>('rows');
    const query = parseListQuery(resource, { facets: 'status_facet', sort: 'rank,DESC' });
    const count = async () => {
      const r = await runList(Row, resource, query, {});
      return { total: r.totalElements, first: (r.content[0] as any).id };
    };
    // exact for a list under minRows: a new row shows in the total at once
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 100_000 });
    const before = await count();
    await c.insertOne({ _id: 'zz-small', rank: 1_000_000, status: 'SUBMITTED', deleted: false });
    expect(await count()).toEqual({ total: before.total + 1, first: 'zz-small' });
    // a large list (minRows 1): the total is kept, the page is not
    configureListCounts({ ttlMs: 600, staleMs: 0, minRows: 1 });
    const kept = await count();
    await c.insertOne({ _id: 'zz-large', rank: 2_000_000, status: 'SUBMITTED', deleted: false });
    expect(await count()).toEqual({ total: kept.total, first: 'zz-large' });
    // after the TTL (no stale window): counted again
    await vi.waitFor(
      async () => expect(await count()).toEqual({ total: kept.total + 1, first: 'zz-large' }),
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    await c.deleteMany({ _id: { $in: ['zz-small', 'zz-large'] } });
  });

  it('a process with no counts of its own serves the counts another process kept (list_counts), within their age', async () => {
    const c = mongo.db!.collection<any>('rows');
    const query = parseListQuery(resource, { facets: 'status_facet,review_facet', sort: 'rank,DESC' });
    const ask = async () => {
      const r = await runList(Row, resource, query, {});
      const facets = await runFacets(Row, resource, query, {}, ['status_facet']);
      return { total: r.totalElements, first: (r.content[0] as any).id, facets };
    };
    // "process A" counts and keeps (and shares) the counts
    await mongo.db!.collection<any>('list_counts').deleteMany({});
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1, shared: true });
    const a = await ask();
    // written beside the answer (not waited for by the request)
    const docs = await vi.waitFor(async () => {
      const found = await mongo.db!.collection<any>('list_counts').find().toArray();
      expect(found).toHaveLength(2);
      return found;
    });
    expect(docs).toHaveLength(2); // the list's question (2 facets) and the facets route's (1)
    const doc = docs.find((d) => d.facets.length === 2);
    expect(doc).toMatchObject({ total: a.total, at: expect.any(Date), expiresAt: expect.any(Date) });
    expect(doc.expiresAt.getTime() - doc.at.getTime()).toBe(60_000);
    // the question itself (which holds a user's search) is not stored, only its hash
    expect(Object.keys(doc).sort()).toEqual(['_id', 'at', 'expiresAt', 'facets', 'total']);
    // a row arrives; "process B" starts with nothing of its own: it serves A's counts, and a fresh page
    await c.insertOne({ _id: 'zz-shared', rank: 3_000_000, status: 'SUBMITTED', deleted: false });
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1, shared: true });
    expect(await ask()).toEqual({ ...a, first: 'zz-shared' });
    // a process that does not share counts itself, exactly
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1, shared: false });
    const own = await ask();
    expect(own.total).toBe(a.total + 1);
    expect(own.facets).not.toEqual(a.facets);
    // shared counts past this process's TTL are not served: it counts (and shares the new counts)
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1, shared: true });
    await mongo
      .db!.collection<any>('list_counts')
      .updateMany({}, { $set: { at: new Date(Date.now() - 61_000) } });
    expect((await ask()).total).toBe(a.total + 1);
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: 1, shared: true });
    expect((await ask()).total).toBe(a.total + 1);
    // shared counts under this process's minRows (215 < 216) are not taken: it counts exactly
    await c.deleteOne({ _id: 'zz-shared' });
    configureListCounts({ ttlMs: 60_000, staleMs: 0, minRows: a.total + 2, shared: true });
    expect((await ask()).total).toBe(a.total);
  });
});

describe('the store answers $nin through arrays of objects as MongoDB does', () => {
  it("{'a.b': {$nin: [x]}} matches the documents where no element's b is x", async () => {
    const c = mongo.db!.collection<{ _id: string; a?: unknown }>('nin');
    await c.insertMany([
      { _id: 'both', a: [{ b: 'x' }, { b: 'y' }] },
      { _id: 'only-x', a: [{ b: 'x' }] },
      { _id: 'only-y', a: [{ b: 'y' }] },
      { _id: 'empty', a: [] },
      { _id: 'no-b', a: [{ c: 1 }] },
      { _id: 'null-b', a: [{ b: null }] },
      { _id: 'object-x', a: { b: 'x' } },
      { _id: 'missing' },
    ]);
    const ids = async (filter: Record<string, unknown>) =>
      (await c.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    // MongoDB: $nin selects the documents whose field holds none of the values (or lacks the field); through
    // an array of objects, "none" is over every element (FerretDB v1 matched 'both': one element had b != x)
    const none = ['empty', 'missing', 'no-b', 'null-b', 'only-y'];
    expect(await ids({ 'a.b': { $nin: ['x'] } })).toEqual(none);
    expect(await ids({ $nor: [{ 'a.b': { $in: ['x'] } }] })).toEqual(none);
    expect(await ids({ 'a.b': { $nin: ['x', 'y'] } })).toEqual(['empty', 'missing', 'no-b', 'null-b']);
  });
});
