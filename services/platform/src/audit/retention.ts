/**
 * Retention (docs/audit.md "Retention"): entries older than AUDIT_RETENTION_DAYS leave the database for an archive
 * file, oldest first and only as a prefix of the chain, so what stays still checks from the archive mark. One pass:
 * the oldest entries past the cutoff (at most `batch`) are checked against the mark (a broken segment is never
 * archived: it is the evidence), written as JSON lines to the blob store (fsynced, with its SHA-256), then in one
 * transaction the archive mark moves to the last archived entry (conditional on the mark read) and exactly those
 * entries are removed. This is the only code that removes entries of the chain.
 */
import { Readable } from 'node:stream';
import { AUDIT_GENESIS_HASH } from '@onco/domain';
import type { BlobStore } from '../blobs';
import { inTransaction } from '../transaction';
import { checkChain, type ChainedEntry } from './hash';
import { entryOf, type AuditModels, type ChainMarkDoc, type EntryDoc } from './models';

/** One archive file: which entries it holds and where (the blob store's id and the file's SHA-256). */
export type AuditArchive = NonNullable<ChainMarkDoc['archives']>[number];

export interface ArchivePass {
  /** entries archived and removed (0: nothing past the cutoff, or the segment did not check) */
  archived: number;
  archive: AuditArchive | null;
  /** the segment past the cutoff did not check against the mark: nothing was archived */
  refused: string | null;
}

class MarkMoved extends Error {}

/** Archive the oldest entries recorded before `before` (at most `batch`). */
export async function archiveExpired(
  models: AuditModels,
  blobs: BlobStore,
  opts: { before: Date; batch?: number; now?: Date },
): Promise<ArchivePass> {
  const mark = await models.Chain.findById('archive').lean().exec();
  const from = mark ? { seq: mark.seq, hash: mark.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
  const docs = await models.Entry.find({ seq: { $gt: from.seq } })
    .sort({ seq: 1 })
    .limit(opts.batch ?? 5_000)
    .lean<EntryDoc[]>()
    .exec();
  // a prefix of the chain: up to the first entry still within the retention period
  const expired: ChainedEntry[] = [];
  for (const d of docs) {
    if (d.when >= opts.before) break;
    expired.push(entryOf(d));
  }
  if (!expired.length) return { archived: 0, archive: null, refused: null };
  const check = await checkChain(expired, { from });
  if (!check.ok) return { archived: 0, archive: null, refused: check.broken!.message };

  const lines = expired.map((e) => `${JSON.stringify({ ...e, when: e.when.toISOString() })}\n`);
  const blob = await blobs.put(Readable.from(lines));
  const last = expired[expired.length - 1];
  const archive: AuditArchive = {
    fromSeq: expired[0].seq,
    toSeq: last.seq,
    count: expired.length,
    blobId: blob.id,
    sha256: blob.sha256,
    archivedOn: opts.now ?? new Date(),
  };
  try {
    await inTransaction(models.Entry.db, async (session) => {
      const moved = mark
        ? await models.Chain.updateOne(
            { _id: 'archive', seq: from.seq, hash: from.hash },
            {
              $set: { seq: last.seq, hash: last.hash, updatedOn: archive.archivedOn, location: blob.id },
              $inc: { archived: expired.length },
              $push: { archives: archive },
            },
            { session },
          )
        : await models.Chain.collection
            .insertOne(
              {
                _id: 'archive',
                seq: last.seq,
                hash: last.hash,
                updatedOn: archive.archivedOn,
                archived: expired.length,
                location: blob.id,
                archives: [archive],
              } as never,
              { session },
            )
            .then(() => ({ modifiedCount: 1 }));
      if (moved.modifiedCount !== 1) throw new MarkMoved();
      const gone = await models.Entry.collection.deleteMany(
        { seq: { $gt: from.seq, $lte: last.seq } },
        { session },
      );
      if (gone.deletedCount !== expired.length) throw new MarkMoved();
    });
  } catch (err) {
    // another process archived first (or the transaction failed): this file holds nothing the mark names
    await blobs.remove(blob.id).catch(() => undefined);
    if (err instanceof MarkMoved || (err as { code?: number }).code === 11000)
      return { archived: 0, archive: null, refused: null };
    throw err;
  }
  return { archived: expired.length, archive, refused: null };
}

/** The cutoff of a retention in days (0: keep every entry), as of `now`. */
export function retentionCutoff(days: number, now = new Date()): Date | null {
  return days > 0 ? new Date(now.getTime() - days * 86_400_000) : null;
}
