/**
 * Checks the audit trail's hash chain (docs/audit.md "Checking the chain"): walks every entry in seq order from the
 * archive mark (or the first) to the head, recomputes each hash and each link, and reports the first broken one;
 * then the archive files before the mark (their SHA-256, their entries, their links, up to the mark). Read-only.
 * Exit code 0 when intact, 1 when broken, 2 when it could not check.
 *
 *   npm run audit:verify                     # the database of MONGO_URL (default: the local store's oncotrf)
 *   npm run audit:verify -- --mongo-url URL  # another database
 *   npm run audit:verify -- --file-store DIR # where the archive files are (default: FILE_STORE_DIR)
 *   npm run audit:verify -- --json           # the result as JSON
 */
import { auditModels, connectMongo, FileBlobStore, loadConfig, verifyStoredChain } from '@onco/platform';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

async function main(): Promise<number> {
  const config = loadConfig();
  const url = opt('mongo-url') ?? config.MONGO_URL;
  const blobs = new FileBlobStore(opt('file-store') ?? config.FILE_STORE_DIR);
  const started = Date.now();
  const mongo = await connectMongo(url);
  try {
    const res = await verifyStoredChain(auditModels(mongo), { blobs });
    if (args.includes('--json')) {
      console.log(JSON.stringify(res, null, 2));
      return res.ok ? 0 : 1;
    }
    const db = mongo.db?.databaseName ?? '?';
    const start = res.from.seq === 0 ? 'the first entry' : `the archive mark (entry ${res.from.seq})`;
    console.log(`[audit:verify] database ${db}: checked ${res.checked} entries from ${start}`);
    console.log(
      `[audit:verify] head: ${res.head ? `entry ${res.head.seq}, ${res.head.hash}` : 'none (empty chain)'}`,
    );
    const a = res.archives!;
    console.log(
      a.ok
        ? `[audit:verify] archives: ${a.files} files, ${a.entries} entries, intact up to the archive mark`
        : `[audit:verify] archives: BROKEN in the file of entries ${a.broken!.fromSeq} to ${a.broken!.toSeq} (blob ${a.broken!.blobId}): ${a.broken!.message}`,
    );
    const oldest = res.inbox.oldest ? `, the oldest recorded ${res.inbox.oldest.toISOString()}` : '';
    console.log(`[audit:verify] waiting to be chained: ${res.inbox.count}${oldest}`);
    if (res.ok) {
      console.log(`[audit:verify] OK: the chain is intact (${Date.now() - started} ms)`);
      return 0;
    }
    if (!res.broken) return 1; // the archives (above)
    const b = res.broken;
    console.log(
      `[audit:verify] BROKEN at entry ${b.seq}${b.entryId ? ` (id ${b.entryId})` : ''}: ${b.message}`,
    );
    console.log(`[audit:verify] the last intact entry is ${res.last.seq} (${res.last.hash})`);
    return 1;
  } finally {
    await mongo.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`[audit:verify] could not check: ${err.message}`);
    process.exit(2);
  },
);
