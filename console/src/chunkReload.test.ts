import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_KEY, isChunkLoadError, loadOrReload, reloadAllowed } from './chunkReload';

function env(now = 1_000_000, stored: string | null = null) {
  const store = new Map<string, string>(stored === null ? [] : [[CHUNK_RELOAD_KEY, stored]]);
  const out = {
    reloads: 0,
    store,
    storage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    },
    reload: () => void out.reloads++,
    now: () => now,
  };
  return out;
}
const gone = () =>
  Promise.reject(
    new TypeError('Failed to fetch dynamically imported module: http://x/assets/TestDetailPage-abc.js'),
  );
const settled = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('pending'), 20)),
  ]);

describe('a screen whose file is gone after a deploy reloads the page once', () => {
  it('recognises the browsers’ wordings of a failed dynamic import, and nothing else', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
  it('reloads once, and the failed load never settles (no error page flashes before the reload)', async () => {
    const e = env();
    expect(await settled(loadOrReload(gone, e))).toBe('pending');
    expect(e.reloads).toBe(1);
    expect(e.store.get(CHUNK_RELOAD_KEY)).toBe('1000000');
  });
  it('a second failure right after the reload is an error (no reload loop)', async () => {
    const e = env(1_010_000, '1000000');
    expect(await settled(loadOrReload(gone, e))).toBe('rejected');
    expect(e.reloads).toBe(0);
    expect(reloadAllowed('1000000', 1_031_000)).toBe(true);
    expect(reloadAllowed(null, 0)).toBe(true);
  });
  it('other failures and successful loads pass through', async () => {
    const e = env();
    await expect(loadOrReload(() => Promise.reject(new Error('boom')), e)).rejects.toThrow('boom');
    await expect(loadOrReload(() => Promise.resolve({ default: 1 }), e)).resolves.toEqual({ default: 1 });
    expect(e.reloads).toBe(0);
  });
});
