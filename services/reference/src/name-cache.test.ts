import { describe, expect, it } from 'vitest';
import { NameCache, type NameSource } from './name-cache';

/** A directory of names that counts the queries it answers (the cache's own logic; the store is covered by patients.int). */
function directory(names: Record<string, string>) {
  const calls: string[][] = [];
  const source: NameSource = {
    find: (filter: any) => ({
      lean: () => ({
        exec: async () => {
          const ids: string[] = filter._id.$in;
          calls.push(ids);
          return ids.filter((id) => id in names).map((id) => ({ _id: id, name: names[id] }));
        },
      }),
    }),
  };
  return { source, calls, names };
}

describe('NameCache', () => {
  it('asks once for the ids it lacks, then answers from memory until the ttl passes', async () => {
    let now = 1_000;
    const cache = new NameCache(60_000, 100, () => now);
    const dir = directory({ a: 'Alpha Clinic', b: 'Beta Clinic' });
    expect(await cache.names(dir.source, ['a', 'b', 'a', 'zz'])).toEqual(
      new Map([
        ['a', 'Alpha Clinic'],
        ['b', 'Beta Clinic'],
      ]),
    );
    expect(dir.calls).toEqual([['a', 'b', 'zz']]);
    dir.names.a = 'Alpha Renamed';
    expect((await cache.names(dir.source, ['a', 'zz'])).get('a')).toBe('Alpha Clinic');
    expect(dir.calls).toHaveLength(1);
    now += 60_000;
    expect((await cache.names(dir.source, ['a'])).get('a')).toBe('Alpha Renamed');
    expect(dir.calls).toEqual([['a', 'b', 'zz'], ['a']]);
  });

  it('forgets a renamed id at once', async () => {
    const cache = new NameCache();
    const dir = directory({ a: 'Alpha Clinic' });
    await cache.names(dir.source, ['a']);
    dir.names.a = 'Alpha Renamed';
    cache.forget('a');
    expect((await cache.names(dir.source, ['a'])).get('a')).toBe('Alpha Renamed');
  });

  it('asks nothing for no ids and stays bounded', async () => {
    const cache = new NameCache(60_000, 3);
    const dir = directory({ a: 'A', b: 'B', c: 'C', d: 'D' });
    expect((await cache.names(dir.source, [])).size).toBe(0);
    expect(dir.calls).toHaveLength(0);
    await cache.names(dir.source, ['a', 'b', 'c']);
    await cache.names(dir.source, ['d']);
    expect((cache as any).entries.size).toBeLessThanOrEqual(3);
  });
});
