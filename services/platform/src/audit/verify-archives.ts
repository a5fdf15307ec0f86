/**
 * The check of the archive files (docs/audit.md "Retention", `npm run audit:verify`): the entries retention moved
 * out of the database still form the start of the chain. Each file listed on the archive mark, in seq order, is
 * read from the blob store: its bytes give the SHA-256 the mark recorded, its lines are the entries `fromSeq` to
 * `toSeq` (their count), each entry's fields give its hash and link to the one before (the first file's first to
 * the genesis, each file's first to the previous file's last), and the last file's last entry is the mark itself
 * (seq and hash), where the database's part of the chain starts. Read-only.
 */
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { AUDIT_GENESIS_HASH } from '@onco/domain';
import type { BlobStore } from '../blobs';
import { checkChain, type ChainedEntry } from './hash';
import type { AuditModels } from './models';

export interface ArchiveCheck {
  ok: boolean;
  /** archive files checked, and the entries in them */
  files: number;
  entries: number;
  /** the first problem: the file (its blob id and range) and what is wrong */
  broken: { blobId: string; fromSeq: number; toSeq: number; message: string } | null;
}

/** The entries of one archive file, hashing its bytes on the way (`digest()` once read). */
function readArchive(stream: NodeJS.ReadableStream) {
  const sha = createHash('sha256');
  stream.on('data', (chunk: Buffer) => sha.update(chunk));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  async function* entries(): AsyncGenerator<ChainedEntry> {
    for await (const line of lines) {
      if (!line.trim()) continue;
      const e = JSON.parse(line) as ChainedEntry & { when: string };
      yield { ...e, when: new Date(e.when) };
    }
  }
  return { entries: entries(), digest: () => sha.digest('hex') };
}

export async function verifyArchives(models: AuditModels, blobs: BlobStore): Promise<ArchiveCheck> {
  const mark = await models.Chain.findById('archive').lean().exec();
  const archives = [...(mark?.archives ?? [])].sort((a, b) => a.fromSeq - b.fromSeq);
  let last = { seq: 0, hash: AUDIT_GENESIS_HASH };
  let entries = 0;
  for (const [i, a] of archives.entries()) {
    const fail = (message: string): ArchiveCheck => ({
      ok: false,
      files: i,
      entries,
      broken: { blobId: a.blobId, fromSeq: a.fromSeq, toSeq: a.toSeq, message },
    });
    if (a.fromSeq !== last.seq + 1)
      return fail(`the archives skip entries ${last.seq + 1} to ${a.fromSeq - 1}, or hold them twice`);
    let stream: NodeJS.ReadableStream;
    try {
      stream = await blobs.get(a.blobId);
    } catch (err) {
      return fail(`the archive file is missing (${(err as Error).message})`);
    }
    const file = readArchive(stream);
    let check;
    try {
      check = await checkChain(file.entries, { from: last });
    } catch (err) {
      return fail(`the archive file cannot be read (${(err as Error).message})`);
    }
    if (!check.ok) return fail(check.broken!.message);
    if (check.last.seq !== a.toSeq || check.checked !== a.count)
      return fail(
        `the archive file holds entries ${a.fromSeq} to ${check.last.seq} (${check.checked}), the mark says ${a.fromSeq} to ${a.toSeq} (${a.count})`,
      );
    // a file read to its end: any change of its bytes shows here, even one that still parses and chains
    if (file.digest() !== a.sha256)
      return fail('the archive file was changed: its SHA-256 is not the one recorded when it was written');
    entries += check.checked;
    last = check.last;
  }
  const archived = mark ? { seq: mark.seq, hash: mark.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
  if (last.seq !== archived.seq || last.hash !== archived.hash) {
    const a = archives.at(-1);
    return {
      ok: false,
      files: archives.length,
      entries,
      broken: {
        blobId: a?.blobId ?? '',
        fromSeq: a?.fromSeq ?? 0,
        toSeq: a?.toSeq ?? 0,
        message: `the archives end at entry ${last.seq}, the archive mark at entry ${archived.seq} (or with another hash)`,
      },
    };
  }
  return { ok: true, files: archives.length, entries, broken: null };
}
