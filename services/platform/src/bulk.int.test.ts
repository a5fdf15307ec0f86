import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { z } from 'zod';
import { runBulk } from './bulk';
import { connectMongo } from './connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';
import { badRequest, notFound } from './errors';

/**
 * runBulk against the store the tests run on (DocumentDB here, MongoDB under Docker): every row checked before
 * anything is written, then every row written in one transaction, so a failure midway leaves nothing.
 */
const suffix = randomBytes(4).toString('hex');
let mongo: Connection;

beforeAll(async () => {
  mongo = await connectMongo(
    mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_bulk_${suffix}`),
  );
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

type Doc = { _id: string; n: number; version?: number };
const row = z.object({ id: z.string(), n: z.number().int().min(0), version: z.number().optional() });
const coll = (name: string) => mongo.db!.collection<Doc>(name);

describe('runBulk', () => {
  it('a write failing midway (after two rows were written in the transaction) leaves nothing', async () => {
    const c = coll('midway');
    const err = await runBulk({
      body: [0, 1, 2, 3].map((i) => ({ id: `r${i}`, n: i })),
      schema: row,
      conn: mongo,
      check: async (r) => r,
      write: async (rows, session) => {
        for (const r of rows) {
          if (r.n === 2) throw new Error('the store failed');
          await c.insertOne({ _id: r.id, n: r.n }, { session });
        }
        return rows;
      },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the store failed');
    expect(await c.countDocuments({})).toBe(0);
  });

  it('checks every row (20 at a time) and names every failing one in order; write never runs', async () => {
    let writes = 0;
    const err = (await runBulk({
      body: Array.from({ length: 45 }, (_, i) => (i === 7 ? { id: 'x', n: -1 } : { id: `r${i}`, n: i })),
      schema: row,
      conn: mongo,
      check: async (r) => {
        if (r.n === 30) throw notFound();
        if (r.n === 3) throw badRequest('three is refused', { field: 'n' });
        return r;
      },
      write: async (rows) => {
        writes += 1;
        return rows;
      },
    }).catch((e: unknown) => e)) as { statusCode: number; message: string; details: { rows: any[] } };
    expect(writes).toBe(0);
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe('3 of 45 rows were refused (index 3, 7, 30); nothing was saved.');
    expect(err.details.rows).toEqual([
      {
        index: 3,
        status: 400,
        code: 'BAD_REQUEST',
        message: 'three is refused',
        fields: { n: 'three is refused' },
      },
      {
        index: 7,
        status: 400,
        code: 'BAD_REQUEST',
        message: expect.stringMatching(/^Invalid row: n: /),
        fields: { n: expect.any(String) },
      },
      { index: 30, status: 404, code: 'NOT_FOUND', message: 'The requested record was not found.' },
    ]);
  });

  it('a record changed between its check and its write: a 409 naming the row with a version, nothing written', async () => {
    const c = coll('stale');
    await c.insertMany([
      { _id: 'a', n: 0, version: 0 },
      { _id: 'b', n: 0, version: 0 },
    ]);
    const err = (await runBulk({
      body: [
        { id: 'a', n: 5, version: 0 },
        { id: 'b', n: 5, version: 0 },
      ],
      schema: row,
      conn: mongo,
      strict: (r) => r.version !== undefined,
      check: async (r) => {
        const doc = await c.findOne({ _id: r.id });
        // someone else changes b once it has been read
        if (r.id === 'b') await c.updateOne({ _id: 'b' }, { $inc: { version: 1 } });
        return { id: r.id, n: r.n, version: doc!.version! };
      },
      write: async (rows, session) => {
        const out = [];
        for (const r of rows)
          out.push(
            await c.findOneAndUpdate(
              { _id: r.id, version: r.version },
              { $set: { n: r.n }, $inc: { version: 1 } },
              { session, returnDocument: 'after' },
            ),
          );
        return out;
      },
    }).catch((e: unknown) => e)) as { statusCode: number; details: { rows: any[] } };
    expect(err.statusCode).toBe(409);
    expect(err.details.rows).toEqual([expect.objectContaining({ index: 1, status: 409, code: 'CONFLICT' })]);
    expect((await c.find({}).sort({ _id: 1 }).toArray()).map((d) => [d._id, d.n, d.version])).toEqual([
      ['a', 0, 0],
      ['b', 0, 1],
    ]);
  });

  it('without a version, a row whose record changed is checked and written again (every row once)', async () => {
    const c = coll('again');
    await c.insertMany([
      { _id: 'a', n: 0, version: 0 },
      { _id: 'b', n: 0, version: 0 },
    ]);
    let rounds = 0;
    const written = await runBulk({
      body: [
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
      ],
      schema: row,
      conn: mongo,
      strict: (r) => r.version !== undefined,
      check: async (r) => {
        const doc = await c.findOne({ _id: r.id });
        if (r.id === 'b' && rounds++ === 0) await c.updateOne({ _id: 'b' }, { $inc: { version: 1 } });
        return { id: r.id, n: r.n, version: doc!.version! };
      },
      write: async (rows, session) => {
        const out = [];
        for (const r of rows)
          out.push(
            await c.findOneAndUpdate(
              { _id: r.id, version: r.version },
              { $inc: { n: r.n, version: 1 } },
              { session, returnDocument: 'after' },
            ),
          );
        return out;
      },
    });
    expect(rounds).toBe(2);
    expect(written.map((d) => [d!._id, d!.n, d!.version])).toEqual([
      ['a', 1, 1],
      ['b', 2, 2],
    ]);
  });
});
