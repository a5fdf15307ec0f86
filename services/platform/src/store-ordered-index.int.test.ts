import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from './connections';
import { planStages } from './explain';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';

/**
 * Index-ordered list pages on the local store (DocumentDB with its extended RUM, infra/README.md "Index-ordered
 * pages"): an index created through the ordered-index role (`<store user>_ordered`, `enableOrderedIndex: true`)
 * is read in its order, so a filtered newest-first page needs no sort of all matches. Checked here: the pages
 * are the ones the same query gives without that index, the plan has no sort, and unique indexes are unaffected.
 * MongoDB (docker-compose / testcontainers) has no such role and needs none: there the file is skipped.
 */
const suffix = randomBytes(4).toString('hex');
const dbName = `oncotrf_ordered_${suffix}`;
const baseUrl = process.env.MONGO_URL ?? LOCAL_MONGO_URL;

/** The ordered-index role's URL: MONGO_ORDERED_URL, else MONGO_URL's login with `_ordered` added (store.sh). */
function orderedUrl(url: string): string {
  if (process.env.MONGO_ORDERED_URL) return mongoUrlWithDb(process.env.MONGO_ORDERED_URL, dbName);
  const u = new URL(mongoUrlWithDb(url, dbName));
  u.username = `${decodeURIComponent(u.username)}_ordered`;
  if (!u.searchParams.has('authSource')) u.searchParams.set('authSource', 'admin');
  return u.toString();
}

const ORDERED = 'updatedOn_-1__id_-1';
const STATUSES = ['DRAFT', 'SUBMITTED', 'IN_LAB', 'ON_HOLD'];
const FILTER = { status: { $in: ['SUBMITTED', 'ON_HOLD'] }, accountIds: { $in: ['acc1', 'acc2', 'acc3'] } };
const SORT = { updatedOn: -1, _id: -1 } as const;
const PAGE = 15;

interface Row {
  _id: string;
  status: string;
  accountIds: string[];
  updatedOn?: Date;
}

/** Rows with many equal updatedOn values (minute resolution) and a few without updatedOn. */
function rows(from: number, n: number): Row[] {
  const t0 = Date.UTC(2026, 0, 1);
  return Array.from({ length: n }, (_, j) => {
    const i = from + j;
    const r: Row = {
      _id: `r${String((i * 7919) % 100_000).padStart(5, '0')}-${i}`,
      status: STATUSES[i % 4],
      accountIds: [`acc${i % 5}`, `acc${(i + 2) % 5}`],
      updatedOn: new Date(t0 + ((i * 37) % 300) * 60_000),
    };
    if (i % 997 === 1) delete r.updatedOn;
    return r;
  });
}

/** MongoDB's order for SORT: missing sorts as null, below every date; ties by _id. */
function expected(all: Row[]): string[] {
  const t = (r: Row) => (r.updatedOn ? r.updatedOn.getTime() : -Infinity);
  return all
    .filter(
      (r) =>
        FILTER.status.$in.includes(r.status) && r.accountIds.some((a) => FILTER.accountIds.$in.includes(a)),
    )
    .sort((a, b) => t(b) - t(a) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0))
    .map((r) => r._id);
}

let mongo: Connection;
let ordered: Connection | undefined;
let skipReason = '';

beforeAll(async () => {
  mongo = await connectMongo(mongoUrlWithDb(baseUrl, dbName));
  const info = await mongo.db!.admin().command({ buildInfo: 1 });
  // MongoDB always reports its gitVersion; DocumentDB's gateway answers buildInfo without one.
  if (info.gitVersion !== undefined) {
    skipReason = `the store is MongoDB ${info.version}, not DocumentDB: ordered indexes are ordinary indexes there`;
    return;
  }
  ordered = await connectMongo(orderedUrl(baseUrl)).catch((e: Error) => {
    throw new Error(
      `DocumentDB store without the ordered-index role (${e.message}); is the store built as r4 or later ` +
        `(infra/documentdb/store.sh)? Set MONGO_ORDERED_URL for a store with another login.`,
    );
  });
});

afterAll(async () => {
  await ordered?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('index-ordered list pages (DocumentDB extended RUM)', () => {
  it('pages, plan and unique indexes', async (ctx) => {
    if (skipReason) {
      console.warn(`store-ordered-index: skipped, ${skipReason}`);
      ctx.skip();
    }
    const c = mongo.collection<Row>('lists');
    const copy = mongo.collection<Row>('lists_plain');
    const before = rows(0, 2000);
    const after = rows(2000, 1000);
    await c.insertMany(before);
    await copy.insertMany([...before, ...after]);
    // the app's own (ordinary) indexes, by the app's login
    for (const x of [c, copy]) {
      await x.createIndex({ status: 1 });
      await x.createIndex({ accountIds: 1 });
    }
    await copy.createIndex(SORT, { name: ORDERED });
    // the ordered index, by the ordered-index role (three-argument form: mongoose's two-argument createIndex
    // drops enableOrderedIndex)
    const made = await ordered!.db!.command({
      createIndexes: 'lists',
      indexes: [{ key: SORT, name: ORDERED, enableOrderedIndex: true }],
    });
    expect(made.ok).toBe(1);
    await c.insertMany(after); // rows written after the build are in the ordered index too
    const spec = (await c.indexes()).find((i) => i.name === ORDERED);
    expect(spec).toMatchObject({ key: SORT, enableCompositeTerm: 1 });

    // (i) every page equals the same query's page without the ordered index, and MongoDB's order
    const want = expected([...before, ...after]);
    expect(want.length).toBeGreaterThan(20 * PAGE);
    const got: string[] = [];
    const plain: string[] = [];
    for (let skip = 0; skip < want.length; skip += PAGE) {
      const page = await c
        .find(FILTER, { projection: { _id: 1 } })
        .sort(SORT)
        .hint(ORDERED)
        .skip(skip)
        .limit(PAGE)
        .toArray();
      const ref = await copy
        .find(FILTER, { projection: { _id: 1 } })
        .sort(SORT)
        .skip(skip)
        .limit(PAGE)
        .toArray();
      expect(page.map((d) => d._id)).toEqual(ref.map((d) => d._id));
      got.push(...page.map((d) => d._id));
      plain.push(...ref.map((d) => d._id));
    }
    expect(got).toEqual(want);
    expect(plain).toEqual(want);
    // the same through aggregate
    const agg = await c
      .aggregate(
        [{ $match: FILTER }, { $sort: SORT }, { $skip: 30 }, { $limit: PAGE }, { $project: { _id: 1 } }],
        { hint: ORDERED },
      )
      .toArray();
    expect(agg.map((d) => d._id)).toEqual(want.slice(30, 30 + PAGE));

    // (ii) the page is read in index order: no sort stage
    const explain = await c.find(FILTER).sort(SORT).hint(ORDERED).limit(PAGE).explain();
    const stages = planStages(explain.queryPlanner ?? explain);
    expect(stages).toContain('IXSCAN');
    expect(stages.filter((s) => /SORT/i.test(s))).toEqual([]);
    expect(JSON.stringify(explain.queryPlanner ?? explain)).toContain(ORDERED);
    // the copy with an ordinary index on the same keys sorts
    const plainExplain = await copy.find(FILTER).sort(SORT).hint(ORDERED).limit(PAGE).explain();
    expect(planStages(plainExplain.queryPlanner ?? plainExplain)).toContain('SORT');

    // (iii) unique indexes: still created by the app's login on that collection, and enforced
    await c.createIndex({ code: 1 }, { unique: true, sparse: true });
    await c.updateOne({ _id: before[0]._id }, { $set: { code: 'A' } } as any);
    await expect(c.updateOne({ _id: before[1]._id }, { $set: { code: 'A' } } as any)).rejects.toMatchObject({
      code: 11000,
    });
    await expect(
      c.insertOne({ _id: 'dup', status: 'DRAFT', accountIds: [], code: 'A' } as any),
    ).rejects.toMatchObject({
      code: 11000,
    });
    expect(await c.countDocuments({ code: 'A' })).toBe(1);
  });
});
