/**
 * The check of the stored chain (`npm run audit:verify`, docs/audit.md "Checking the chain"): every entry from
 * the archive mark (or the first) to the head, in seq order, through checkChain; with the blob store, the archive
 * files before the mark too (verify-archives.ts).
 */
import { AUDIT_GENESIS_HASH } from '@onco/domain';
import { checkChain, type ChainCheck, type ChainedEntry } from './hash';
import { entryOf, type AuditModels, type EntryDoc } from './models';
import { verifyArchives, type ArchiveCheck } from './verify-archives';
import type { BlobStore } from '../blobs';

export interface StoredChainCheck extends ChainCheck {
  /** where the check started: seq 0 (the genesis) or the last archived entry */
  from: { seq: number; hash: string };
  head: { seq: number; hash: string } | null;
  /** entries recorded but not yet chained, and when the oldest was recorded */
  inbox: { count: number; oldest: Date | null };
  /** the archive files' check (when the blob store was given) */
  archives?: ArchiveCheck;
}

export async function verifyStoredChain(
  models: AuditModels,
  opts: { blobs?: BlobStore } = {},
): Promise<StoredChainCheck> {
  const [head, archive] = await Promise.all([
    models.Chain.findById('head').lean().exec(),
    models.Chain.findById('archive').lean().exec(),
  ]);
  const from = archive ? { seq: archive.seq, hash: archive.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
  const cursor = models.Entry.find({ seq: { $gt: from.seq } })
    .sort({ seq: 1 })
    .lean<EntryDoc>()
    .cursor({ batchSize: 1_000 });
  async function* entries(): AsyncGenerator<ChainedEntry> {
    for await (const doc of cursor) yield entryOf(doc as EntryDoc);
  }
  try {
    const result = await checkChain(entries(), {
      from,
      head: head ? { seq: head.seq, hash: head.hash } : null,
    });
    const [count, oldest] = await Promise.all([
      models.Inbox.countDocuments({}),
      models.Inbox.findOne({}).sort({ when: 1 }).lean().exec(),
    ]);
    const archives = opts.blobs ? await verifyArchives(models, opts.blobs) : undefined;
    return {
      ...result,
      ok: result.ok && (archives?.ok ?? true),
      archives,
      from,
      head: head ? { seq: head.seq, hash: head.hash } : null,
      inbox: { count, oldest: oldest?.when ?? null },
    };
  } finally {
    await cursor.close().catch(() => undefined);
  }
}
