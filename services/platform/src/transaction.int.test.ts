import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectMongo } from './connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';
import { inTransaction, isWriteConflict } from './transaction';

/**
 * Transactions that write the same document, against the store the tests run on (DocumentDB here, MongoDB under
 * Docker): what the server answers, and that `inTransaction` runs the loser again.
 */
const suffix = randomBytes(4).toString('hex');
let mongo: Connection;

beforeAll(async () => {
  mongo = await connectMongo(
    mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_tx_${suffix}`),
  );
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('transactions writing one document', () => {
  it('the second writer gets WriteConflict (112); DocumentDB does not label it TransientTransactionError', async () => {
    const c = mongo.db!.collection<{ _id: string; n: number }>('conflict');
    await c.insertOne({ _id: 'p', n: 0 });
    const first = mongo.getClient().startSession();
    const second = mongo.getClient().startSession();
    try {
      first.startTransaction();
      await c.updateOne({ _id: 'p' }, { $inc: { n: 1 } }, { session: first });
      second.startTransaction();
      const err = await c
        .updateOne({ _id: 'p' }, { $inc: { n: 10 } }, { session: second })
        .then(() => null)
        .catch((e: unknown) => e);
      await second.abortTransaction().catch(() => undefined);
      await first.commitTransaction();
      expect((err as { code?: number })?.code).toBe(112);
      expect(isWriteConflict(err)).toBe(true);
      // MongoDB labels it (so the driver's withTransaction retries it); DocumentDB's gateway does not, which is
      // why inTransaction retries on the code as well. Real MongoDB's buildInfo carries a gitVersion.
      const info = await mongo.db!.admin().command({ buildInfo: 1 });
      const labelled = (err as { hasErrorLabel(l: string): boolean }).hasErrorLabel(
        'TransientTransactionError',
      );
      if (!info.gitVersion) expect(labelled).toBe(false);
      expect((await c.findOne({ _id: 'p' }))?.n).toBe(1);
    } finally {
      await first.endSession();
      await second.endSession();
    }
  });

  it('inTransaction runs a conflicting transaction again: 12 read-then-write transactions all land', async () => {
    const c = mongo.db!.collection<{ _id: string; n: number; seen: number[]; touched?: boolean }>('retry');
    await c.insertOne({ _id: 'p', n: 0, seen: [] });
    const runs: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        inTransaction(mongo, async (session) => {
          runs.push(i);
          // write first (the conflict point), then read, pause longer than DocumentDB's 20 ms lock wait, and
          // write a value computed from the read: correct only if the transactions serialize
          await c.updateOne({ _id: 'p' }, { $set: { touched: true } }, { session });
          const doc = await c.findOne({ _id: 'p' }, { session });
          await pause(30);
          await c.updateOne(
            { _id: 'p' },
            { $set: { n: (doc?.n ?? 0) + 1 }, $push: { seen: i } },
            { session },
          );
        }),
      ),
    );
    const doc = await c.findOne({ _id: 'p' });
    expect(doc?.n).toBe(12);
    expect([...doc!.seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(runs.length).toBeGreaterThan(12); // some of them ran more than once
  });

  it('an error thrown inside aborts the whole transaction and is not retried', async () => {
    const c = mongo.db!.collection<{ _id: string }>('abort');
    let runs = 0;
    await expect(
      inTransaction(mongo, async (session) => {
        runs++;
        await c.insertOne({ _id: 'half' }, { session });
        throw Object.assign(new Error('not found'), { statusCode: 404 });
      }),
    ).rejects.toThrow('not found');
    expect(runs).toBe(1);
    expect(await c.countDocuments({ _id: 'half' })).toBe(0);
  });
});
