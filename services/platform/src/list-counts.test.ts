import { describe, expect, it } from 'vitest';
import { ListCountsCache, countsKey, type ListCounts } from './list-counts';

const counts = (total: number): ListCounts => ({ total, facets: [{ name: 'f', items: [] }] });

describe('ListCountsCache: the counts decision', () => {
  const policy = { ttlMs: 1_000, staleMs: 2_000, minRows: 100, maxEntries: 3, shared: true };

  it('keeps a large list only, fresh within the TTL, stale (refresh) up to TTL + stale, then gone', async () => {
    let now = 0;
    const c = new ListCountsCache(policy, () => now);
    await c.compute('small', async () => counts(99));
    expect(c.peek('small')).toBeUndefined();
    await c.compute('large', async () => counts(100));
    expect(c.peek('large')).toEqual({ value: counts(100), refresh: false });
    now = 999;
    expect(c.peek('large')?.refresh).toBe(false);
    now = 1_000;
    expect(c.peek('large')).toEqual({ value: counts(100), refresh: true });
    now = 2_999;
    expect(c.peek('large')?.refresh).toBe(true);
    now = 3_000;
    expect(c.peek('large')).toBeUndefined();
  });

  it('a count slower than the TTL and stale window is still served: its age runs from when it was in', async () => {
    let now = 0;
    const c = new ListCountsCache(policy, () => now);
    await c.compute('slow', async () => {
      now = 40_000; // counting a million rows under load
      return counts(1_000_000);
    });
    now = 40_500;
    expect(c.peek('slow')).toEqual({ value: counts(1_000_000), refresh: false });
    now = 41_000;
    expect(c.peek('slow')?.refresh).toBe(true);
  });

  it('a TTL of 0 keeps nothing', async () => {
    const c = new ListCountsCache({ ...policy, ttlMs: 0 });
    await c.compute('k', async () => counts(1_000));
    expect(c.peek('k')).toBeUndefined();
  });

  it('concurrent refreshes run once; only a large list lends its computation to other requests', async () => {
    const c = new ListCountsCache(policy, () => 0);
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const run = async () => {
      runs += 1;
      await gate;
      return counts(500);
    };
    const a = c.compute('k', run);
    const b = c.compute('k', run);
    // not known to be large yet: a request would count for itself
    expect(c.pending('k')).toBeUndefined();
    release();
    expect(await a).toEqual(counts(500));
    expect(await b).toEqual(counts(500));
    expect(runs).toBe(1);
    // known large now: the next computation in flight is handed out
    c.clear();
    await c.own(
      'k',
      async () => ({ n: 1, ...counts(500) }),
      (r) => ({ total: r.total, facets: r.facets }),
    );
    const own = c.own(
      'k',
      async () => ({ n: 2, ...counts(600) }),
      (r) => ({ total: r.total, facets: r.facets }),
    );
    expect(await c.pending('k')).toEqual(counts(600));
    expect((await own).n).toBe(2);
    expect(c.pending('k')).toBeUndefined();
  });

  it('an older computation does not replace newer counts; the oldest entry goes when full', async () => {
    let now = 0;
    const c = new ListCountsCache(policy, () => now);
    c.keep('k', counts(200), 10);
    c.keep('k', counts(100), 5); // started earlier, finished later
    expect(c.peek('k')?.value.total).toBe(200);
    c.keep('a', counts(100), 11);
    c.keep('b', counts(100), 12);
    c.keep('d', counts(100), 13);
    expect(c.peek('k')).toBeUndefined();
    expect(c.peek('d')?.value.total).toBe(100);
    now = 0;
  });

  it('a failed computation is not kept and reaches its waiters', async () => {
    const c = new ListCountsCache(policy, () => 0);
    c.keep('k', counts(500), 0);
    c.clear();
    await expect(c.compute('k', async () => Promise.reject(new Error('store down')))).rejects.toThrow(
      'store down',
    );
    expect(c.peek('k')).toBeUndefined();
  });

  it('adopts shared counts young enough and large enough by its own policy; never asks for a list it found small', async () => {
    const now = 10_000;
    const c = new ListCountsCache(policy, () => now);
    expect(c.mayShare('k')).toBe(true);
    // counted elsewhere 500 ms ago: served as kept; 1.5 s ago: served while a refresh runs; 3 s ago: not served
    expect(c.adopt('k', counts(100), 9_500)).toEqual({ value: counts(100), refresh: false });
    expect(c.pending('k')).toBeUndefined();
    expect(c.adopt('old', counts(100), 8_500)).toEqual({ value: counts(100), refresh: true });
    expect(c.adopt('gone', counts(100), 7_000)).toBeUndefined();
    // a list under this process's minRows is counted here, exactly
    expect(c.adopt('tiny', counts(99), 9_900)).toBeUndefined();
    // an adopted count never replaces a newer one of this process
    c.keep('mine', counts(300), 9_800, 9_800);
    expect(c.adopt('mine', counts(200), 9_700)?.value.total).toBe(300);
    expect(c.adopt('mine', counts(400), 9_900)?.value.total).toBe(400);
    // a question this process last found small is not looked for in the shared copy; once large it is again
    await c.compute('s', async () => counts(5));
    expect(c.mayShare('s')).toBe(false);
    await c.compute('s', async () => counts(500));
    expect(c.mayShare('s')).toBe(true);
    // kept counts are handed on to be shared; small ones and a TTL of 0 are not
    const shared: number[] = [];
    await c.compute(
      'x',
      async () => counts(700),
      (v) => shared.push(v.total),
    );
    await c.compute(
      'y',
      async () => counts(7),
      (v) => shared.push(v.total),
    );
    expect(shared).toEqual([700]);
    expect(new ListCountsCache({ ...policy, shared: false }).mayShare('k')).toBe(false);
    expect(new ListCountsCache({ ...policy, ttlMs: 0 }).adopt('k', counts(500), now)).toBeUndefined();
  });

  it('keys tell searches and dates apart', () => {
    expect(countsKey('c', { q: /ann/i })).not.toBe(countsKey('c', { q: /bob/i }));
    expect(countsKey('c', { q: /ann/i })).not.toBe(countsKey('c', { q: /ann/ }));
    expect(countsKey('c', { d: new Date(1) })).not.toBe(countsKey('c', { d: new Date(2) }));
    expect(countsKey('c', { a: 1 })).not.toBe(countsKey('d', { a: 1 }));
  });
});
