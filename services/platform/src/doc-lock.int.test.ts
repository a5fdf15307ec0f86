import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import { connectMongo, createRedis } from './connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from './config';
import { DocLocks } from './doc-lock';

const suffix = randomBytes(4).toString('hex');
let mongo: Connection;
let redis: Redis;
let locks: DocLocks;

beforeAll(async () => {
  mongo = await connectMongo(
    mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_lock_${suffix}`),
  );
  redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  locks = new DocLocks(redis, { prefix: `test_${suffix}` });
});
afterAll(async () => {
  await mongo.dropDatabase();
  await mongo.close();
  await redis.quit();
});

describe('per-document write locks', () => {
  it('make concurrent versioned updates have exactly one winner', async () => {
    const c = mongo.db!.collection<{ _id: string; version: number; n: number; winner?: number }>('probe');
    for (let round = 0; round < 5; round++) {
      await c.deleteMany({});
      await c.insertOne({ _id: 'doc', version: 0, n: 0 });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          locks.run('probe', 'doc', () =>
            c.updateOne({ _id: 'doc', version: 0 }, { $set: { winner: i }, $inc: { version: 1, n: 1 } }),
          ),
        ),
      );
      expect(results.filter((r) => r.modifiedCount === 1)).toHaveLength(1);
      expect((await c.findOne({ _id: 'doc' }))?.n).toBe(1);
    }
  });

  it('make concurrent $inc and $push lose nothing', async () => {
    const c = mongo.db!.collection<{ _id: string; n: number; items: string[] }>('probe2');
    await c.insertOne({ _id: 'doc', n: 0, items: [] });
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        locks.run('probe2', 'doc', () =>
          c.updateOne({ _id: 'doc' }, { $inc: { n: 1 }, $push: { items: `i${i}` } }),
        ),
      ),
    );
    const doc = await c.findOne({ _id: 'doc' });
    expect(doc?.n).toBe(40);
    expect(doc?.items).toHaveLength(40);
  });

  it('frees a lock whose holder threw, and times out instead of waiting for ever', async () => {
    await expect(locks.run('probe', 'x', async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await locks.run('probe', 'x', async () => 'free')).toBe('free');
    const quick = new DocLocks(redis, { prefix: `test_${suffix}`, waitMs: 200 });
    let release!: () => void;
    const held = quick.run('probe', 'y', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    await expect(quick.run('probe', 'y', async () => 1)).rejects.toThrow(
      /Timed out waiting for the write lock/,
    );
    release();
    await held;
  });
});
