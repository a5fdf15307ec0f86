import { randomUUID } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FeedEntry, StoredClaim } from './gateway-standin';

/**
 * What the billing gateway stand-in keeps on disk (gateway-standin.ts): one JSON file per claim key in its
 * directory, one per feed entry in `feed/`, each written to a temporary file and renamed into place (never torn),
 * read back when the stand-in starts.
 */

const fileOf = (dir: string, key: string) => path.join(dir, `${encodeURIComponent(key)}.json`);

/** The claims stored in `dir` (before a restart), by key. */
export async function loadStoredClaims(dir: string): Promise<Map<string, StoredClaim>> {
  const stored = new Map<string, StoredClaim>();
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    try {
      const c = JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StoredClaim;
      if (c?.key) stored.set(c.key, c);
    } catch {
      // a torn file of a crash before its rename never exists (write then rename); ignore stray files
    }
  }
  return stored;
}

/** Store a claim as its key's JSON file in `dir` (written, then renamed into place). */
export async function persistClaim(dir: string, c: StoredClaim) {
  const file = fileOf(dir, c.key);
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeFile(tmp, JSON.stringify(c, null, 2));
  await rename(tmp, file);
}

/** The feed's entries stored in `feedDir` (before a restart), in sequence order. */
export async function loadFeed(feedDir: string): Promise<FeedEntry[]> {
  const entries: FeedEntry[] = [];
  for (const f of (await readdir(feedDir)).filter((n) => n.endsWith('.json'))) {
    try {
      const e = JSON.parse(await readFile(path.join(feedDir, f), 'utf8')) as FeedEntry;
      if (e?.id && Number.isSafeInteger(e.seq)) entries.push(e);
    } catch {
      // written then renamed: never torn; ignore stray files
    }
  }
  return entries.sort((a, b) => a.seq - b.seq);
}

/** Store a feed entry as its own JSON file in `feedDir`, named by its sequence number (written, then renamed). */
export async function persistFeedEntry(feedDir: string, e: FeedEntry) {
  const file = path.join(feedDir, `${String(e.seq).padStart(12, '0')}.json`);
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeFile(tmp, JSON.stringify(e, null, 2));
  await rename(tmp, file);
}
