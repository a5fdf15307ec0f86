import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { connectMongo } from './connections';

/**
 * Every read and write of one document by `_id` (a requisition's GET, save, lock, TRF link; the orders list's
 * page) must be an index lookup, not a scan of the collection. FerretDB v1.24.2 as published scans (its `_id`
 * lookup is not written the way its `_id` index is); `scripts/infra.sh` builds it with that fixed
 * (`patch_ferretdb`). This test fails on an unpatched FerretDB and on any server that scans for `_id`.
 */
const suffix = randomBytes(4).toString('hex');
let mongo: Connection;
let ferretdb: string | undefined;
const { ObjectId } = mongoose.mongo;
const oid = new ObjectId();

beforeAll(async () => {
  mongo = await connectMongo(
    (process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/oncotrf').replace(
      /\/[^/?]*(\?|$)/,
      `/oncotrf_idindex_${suffix}$1`,
    ),
  );
  ferretdb = (await mongo.db!.admin().command({ buildInfo: 1 })).ferretdbVersion;
  const docs: any[] = Array.from({ length: 500 }, (_, i) => ({ _id: `doc-${i}`, n: i, tags: ['a', 'b'] }));
  docs.push({ _id: oid, n: -1 }, { _id: 42, n: -2 });
  await mongo.collection('docs').insertMany(docs);
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

/** How the server plans a find by this `_id`: the SQLite plan on FerretDB, the winning stage on MongoDB. */
async function planOf(id: unknown): Promise<string> {
  const ex = await mongo.db!.command({ explain: { find: 'docs', filter: { _id: id } } });
  return JSON.stringify(ferretdb ? ex.queryPlanner?.Plan : ex.queryPlanner?.winningPlan);
}

describe('lookups by _id', () => {
  it('use the _id index for string and ObjectId ids', async () => {
    for (const id of ['doc-7', oid]) {
      const plan = await planOf(id);
      if (ferretdb) {
        expect(plan).toMatch(/SEARCH \S+ USING INDEX \S+__id_/);
        expect(plan).not.toMatch(/SCAN/);
      } else {
        expect(plan).not.toMatch(/COLLSCAN/);
      }
    }
  });

  it('find, update, replace and delete exactly the document named, for every kind of _id', async () => {
    const docs = mongo.collection<{
      _id: string | number | InstanceType<typeof ObjectId>;
      n: number;
      tags?: string[];
      seen?: boolean;
    }>('docs');
    expect(await docs.findOne({ _id: 'doc-7' })).toMatchObject({ _id: 'doc-7', n: 7 });
    expect(await docs.findOne({ _id: oid })).toMatchObject({ n: -1 });
    expect(await docs.findOne({ _id: 42 })).toMatchObject({ n: -2 });
    expect(await docs.findOne({ _id: 'doc-999' })).toBeNull();

    expect((await docs.updateOne({ _id: 'doc-8' }, { $set: { seen: true } })).modifiedCount).toBe(1);
    expect((await docs.updateOne({ _id: oid }, { $push: { tags: 'c' } })).modifiedCount).toBe(1);
    expect(await docs.findOne({ _id: oid })).toMatchObject({ tags: ['c'] });
    expect(await docs.countDocuments({ seen: true })).toBe(1);

    const after = await docs.findOneAndUpdate(
      { _id: 'doc-9' },
      { $inc: { n: 100 } },
      { returnDocument: 'after' },
    );
    expect(after).toMatchObject({ _id: 'doc-9', n: 109 });
    await docs.replaceOne({ _id: 42 }, { n: 4242 });
    expect(await docs.findOne({ _id: 42 })).toEqual({ _id: 42, n: 4242 });

    expect((await docs.deleteOne({ _id: 'doc-10' })).deletedCount).toBe(1);
    expect((await docs.deleteOne({ _id: 'doc-10' })).deletedCount).toBe(0);
    expect(await docs.countDocuments({})).toBe(501);
    // a duplicate _id is still refused (the unique index is the one the lookups now use)
    await expect(docs.insertOne({ _id: 'doc-11', n: 0 })).rejects.toThrow(/duplicate key/i);
  });
});
