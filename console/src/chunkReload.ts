/**
 * A screen's code is loaded on first use, from a file whose name carries a hash of its content. After a new
 * version of the console is deployed, a tab opened before it still asks for the old files, which no longer exist:
 * the import fails and the whole app showed "Something went wrong". Instead the page reloads once (it then gets
 * the new index.html and the new files); a second failure soon after is shown as the error it is.
 */

/** Where the time of the last such reload is kept (this tab only). */
export const CHUNK_RELOAD_KEY = 'oncotrf.chunkReloadAt';
/** No second reload within this time: a file that is missing after a fresh load is a real error. */
export const CHUNK_RELOAD_GUARD_MS = 30_000;

/** Whether an import failed because the file could not be fetched (Chrome, Firefox and Safari wordings). */
export function isChunkLoadError(e: unknown): boolean {
  const message = e instanceof Error ? e.message : String(e ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  );
}

/** Whether to reload now, given when this tab last reloaded for this reason (null: never). */
export function reloadAllowed(lastReloadAt: string | null, now: number): boolean {
  const last = Number(lastReloadAt);
  return !lastReloadAt || !Number.isFinite(last) || now - last > CHUNK_RELOAD_GUARD_MS;
}

export interface ChunkReloadEnv {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  reload: () => void;
  now: () => number;
}

const browserEnv = (): ChunkReloadEnv => ({
  storage: sessionStorage,
  reload: () => window.location.reload(),
  now: Date.now,
});

/**
 * `load` (a dynamic import), reloading the page once when its file is gone (a newer deploy); the promise then
 * never settles, so nothing renders an error while the page reloads. Any other failure is passed on.
 */
export function loadOrReload<T>(load: () => Promise<T>, env: ChunkReloadEnv = browserEnv()): Promise<T> {
  return load().catch((e: unknown) => {
    if (!isChunkLoadError(e) || !reloadAllowed(env.storage.getItem(CHUNK_RELOAD_KEY), env.now())) throw e;
    env.storage.setItem(CHUNK_RELOAD_KEY, String(env.now()));
    env.reload();
    return new Promise<T>(() => {});
  });
}
