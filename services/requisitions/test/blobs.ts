import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** The complete blobs in a FileBlobStore directory (sharded as <dir>/<2 chars>/<id>; partial writes excluded). */
export async function blobFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let shards: string[] = [];
  try {
    shards = await readdir(dir);
  } catch {
    return out;
  }
  for (const shard of shards) {
    for (const f of await readdir(path.join(dir, shard))) if (!f.endsWith('.part')) out.push(f);
  }
  return out.sort();
}
