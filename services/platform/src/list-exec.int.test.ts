import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { connectMongo } from './connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';
import { listScanStats, runFacets, runList, scanList } from './list-exec';
import { buildMatch, parseListQuery, type ListQuery, type ListResource } from './list-query';

/**
 * The one-scan list (count, page and every facet from one read) must answer exactly what the database answers
 * with the page query, countDocuments and one $group per facet: both are run on FerretDB over awkward data
 * (arrays of objects and of strings, missing and null values, equal sort keys, deleted rows) for many queries.
 */
const suffix = randomBytes(4).toString('hex');
let mongo: Connection;
let Row: Model<any>;

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
  search: ['account.name', 'name'],
  facets: [
    { name: 'status_facet', field: 'status' },
    { name: 'review_facet', field: 'review' },
    { name: 'account_facet', field: 'accountName' },
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
  mongo = await connectMongo(
    mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_listexec_${suffix}`),
  );
  Row = mongo.model('Row', new Schema({ _id: String }, { strict: false, versionKey: false }), 'rows');
  const base = Date.UTC(2024, 0, 1);
  const docs = Array.from({ length: 160 }, (_, i) => {
    const doc: Record<string, unknown> = {
      _id: `r${String(i).padStart(3, '0')}`,
      name: pick(['Ann Lee', 'Bob Stone', 'Cy Twombly', 'Dora Maar']),
      status: pick(['DRAFT', 'SUBMITTED', 'SUBMITTED', '', null]),
      review: pick([{ status: 'NEEDS_REVIEW' }, { status: 'DONE' }, { status: null }, {}, null]),
      account: pick([
        { id: 'a1', name: 'Mercy' },
        { id: 'a2', name: 'St. Luke' },
        { id: 'a3', name: null },
        null,
      ]),
      tests: pick([
        [],
        [{ status: 'IN_PROGRESS', type: 'DX' }],
        [
          { status: 'COMPLETE', type: 'DX' },
          { status: 'IN_PROGRESS', type: 'PDX' },
        ],
        [{ status: 'COMPLETE', type: 'PDX' }, { type: 'DX' }],
      ]),
      samples: pick([[], ['PROCEED'], ['PROCEED', 'ON_HOLD'], ['CANCELLED']]),
      rank: pick([1, 2, 2, 3.5, null]),
      // few distinct dates: many equal sort keys, broken by _id
      updatedOn: new Date(base + Math.floor(rand() * 12) * 86400000),
      deleted: rand() < 0.1,
    };
    for (const k of ['review', 'rank', 'samples', 'tests']) if (rand() < 0.08) delete doc[k]; // missing entirely
    return doc;
  });
  await Row.collection.insertMany(docs as any[]);
});

afterAll(async () => {
  await mongo.dropDatabase();
  await mongo.close();
});

/** The reference: page, count and one $group per facet, each in the database. */
async function reference(query: ListQuery, scope: Record<string, unknown>) {
  const match = buildMatch(resource, query, scope);
  const dir = query.sort.order === 'asc' ? 1 : -1;
  const rows = await Row.find(match)
    .sort({ [query.sort.path]: dir, _id: dir })
    .skip(query.page * query.perPage)
    .limit(query.perPage)
    .lean()
    .exec();
  const total = await Row.countDocuments(match).exec();
  const facets = [];
  for (const def of (resource.facets ?? []).filter((f) => query.facets.includes(f.name))) {
    const path = def.path ?? resource.fields[def.field]?.path ?? def.field;
    const pipeline: any[] = [{ $match: buildMatch(resource, query, scope, def.field) }];
    if (def.unwind) pipeline.push({ $unwind: `$${def.unwind}` });
    pipeline.push({ $group: { _id: `$${path}`, count: { $sum: 1 } } }, { $sort: { count: -1, _id: 1 } });
    const groups: Array<{ _id: unknown; count: number }> = await Row.aggregate(pipeline).exec();
    facets.push({
      name: def.name,
      items: groups
        .filter((g) => g._id !== null && g._id !== undefined && g._id !== '')
        .map((g) => ({ value: g._id, count: g.count })),
    });
  }
  return { ids: rows.map((r: any) => r._id), total, facets };
}

const QUERIES: Array<Record<string, unknown>> = [
  {},
  { filter: JSON.stringify({ status: 'eq(SUBMITTED)' }) },
  { filter: JSON.stringify({ testStatus: 'in(IN_PROGRESS,COMPLETE)' }), sort: 'updatedOn,DESC' },
  { filter: JSON.stringify({ testStatus: 'IN_PROGRESS', testType: 'DX' }), sort: 'accountName,ASC' },
  { filter: JSON.stringify({ sample: '!in(PROCEED)' }), sort: 'rank,DESC', page: '1' },
  { filter: JSON.stringify({ review: 'in(NEEDS_REVIEW,DONE)', accountName: 'Mercy' }), sort: 'review,ASC' },
  { filter: JSON.stringify({ status: 'SUBMITTED', accountId: 'a2' }), q: 'stone', sort: 'status,ASC' },
  { filter: JSON.stringify({ rank: 'between(1,2)', testType: '!in(PDX)' }), sort: 'rank,ASC', page: '2' },
  {
    filter: JSON.stringify({
      updatedOn: `between(${Date.UTC(2024, 0, 3)},${Date.UTC(2024, 0, 8)})`,
      sample: 'in(ON_HOLD,CANCELLED)',
    }),
    sort: 'updatedOn,ASC',
  },
  { filter: JSON.stringify({ deleted: 'true', status: '!in(DRAFT)' }), sort: 'accountName,DESC' },
  { filter: JSON.stringify({ accountName: 'in(Mercy,St. Luke)', testStatus: '!in(COMPLETE)' }), page: '3' },
];

describe('the one-scan list', () => {
  it.each(QUERIES.map((q, i) => [i, q] as const))(
    'query %i answers like the page, count and $group per facet',
    async (_i, qs) => {
      for (const scope of [{}, { 'account.id': { $in: ['a1', 'a2'] } }]) {
        const query = parseListQuery(resource, { ...qs, facets: 'true' });
        const want = await reference(query, scope);
        const all = () => Row.find({}).lean<Array<Record<string, any>>>().exec();
        for (const opts of [{}, { scanRows: all }]) {
          const got = await runList(Row, resource, query, scope, opts);
          expect(got.totalElements).toBe(want.total);
          expect(got.content.map((r: any) => r.id)).toEqual(want.ids);
          expect(got.facets).toEqual(want.facets);
          // without facets, read from all rows: the whole match applied in Node
          const plain = await runList(Row, resource, { ...query, facets: [] }, scope, { scanRows: all });
          expect(plain.totalElements).toBe(want.total);
          expect(plain.content.map((r: any) => r.id)).toEqual(want.ids);
        }
        // some facets only, through the facets route's entry point
        const names = ['test_status_facet', 'account_facet'];
        expect(await runFacets(Row, resource, { ...query, facets: names }, scope, names)).toEqual(
          want.facets.filter((f) => names.includes(f.name)),
        );
      }
    },
  );

  it('reuses an answer only for the same row snapshot and the same question', async () => {
    const rows = await Row.find({}).lean<Array<Record<string, any>>>().exec();
    const snapshot = async () => rows;
    const ask = (qs: Record<string, unknown>, scope: Record<string, unknown> = {}, source = snapshot) => {
      const query = parseListQuery(resource, { ...qs, facets: 'true' });
      return scanList(source, resource, query, scope, query.facets, true);
    };
    const scans = listScanStats.rowScans;
    const first = await ask({ q: 'stone' });
    expect(await ask({ q: 'stone' })).toEqual(first);
    // another page of the same list: a slice of the same answer
    const page1 = await ask({ q: 'stone', page: '1' });
    expect(listScanStats.rowScans).toBe(scans + 1);
    expect(page1.pageIds).toEqual(
      (await reference(parseListQuery(resource, { q: 'stone', page: '1' }), {})).ids,
    );
    expect(page1.pageIds).not.toEqual(first.pageIds);
    // questions that differ only in a regular expression, a date, a scope or the sort get their own answers
    const questions: Array<[Record<string, unknown>, Record<string, unknown>?]> = [
      [{ q: 'dora' }],
      [{ q: 'stone' }, { 'account.id': { $in: ['a1'] } }],
      [{ q: 'stone', sort: 'rank,ASC' }],
      [{ filter: JSON.stringify({ updatedOn: `between(${Date.UTC(2024, 0, 3)},${Date.UTC(2024, 0, 8)})` }) }],
      [{ filter: JSON.stringify({ updatedOn: `between(${Date.UTC(2024, 0, 4)},${Date.UTC(2024, 0, 8)})` }) }],
    ];
    for (const [qs, scope = {}] of questions) {
      const before = listScanStats.rowScans;
      const query = parseListQuery(resource, { ...qs, facets: 'true' });
      const want = await reference(query, scope);
      const got = await ask(qs, scope);
      expect(listScanStats.rowScans).toBe(before + 1);
      expect(got.total).toBe(want.total);
      expect(got.pageIds).toEqual(want.ids);
      expect(got.facets).toEqual(want.facets);
    }
    // a new snapshot (a row changed) is answered afresh
    const fewer = rows.filter((r) => r.name !== 'Bob Stone');
    const before = listScanStats.rowScans;
    const again = await ask({ q: 'stone' }, {}, async () => fewer);
    expect(listScanStats.rowScans).toBe(before + 1);
    expect(again.total).toBe(fewer.filter((r) => /stone/i.test(`${r.name} ${r.account?.name}`)).length);
    expect(again.total).toBeLessThan(first.total);
  });

  it('reads the scan from a slim model and the rows from the full one', async () => {
    const Slim = mongo.model(
      'SlimRow',
      new Schema({ _id: String }, { strict: false, versionKey: false }),
      'slim_rows',
    );
    const full = await Row.find({}).lean().exec();
    await Slim.collection.insertMany(
      full.map(({ _id, status, tests, updatedOn, deleted, account }: any) => ({
        _id,
        status,
        tests,
        updatedOn,
        deleted,
        account,
      })) as any[],
    );
    const query = parseListQuery(resource, {
      filter: JSON.stringify({ testStatus: 'IN_PROGRESS' }),
      facets: 'test_status_facet,status_facet',
    });
    const want = await reference(query, {});
    const got = await runList(Row, resource, query, {}, { scanModel: Slim });
    expect(got.totalElements).toBe(want.total);
    expect(got.content.map((r: any) => r.id)).toEqual(want.ids);
    expect(got.facets).toEqual(want.facets);
    expect((got.content[0] as any).name).toBeTruthy(); // the full document
  });
});
