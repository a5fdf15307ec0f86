import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';

export interface StoredBlob {
  id: string;
  size: number;
  sha256: string;
}

/** Binary content of attachments and generated PDFs. */
export interface BlobStore {
  /** Store a stream; rejects (and keeps nothing) when it exceeds maxBytes or the stream errors. */
  put(input: Readable, opts?: { maxBytes?: number }): Promise<StoredBlob>;
  get(id: string): Promise<Readable>;
  size(id: string): Promise<number>;
  remove(id: string): Promise<void>;
}

const WRITE_BUFFER = 1024 * 1024;

export class BlobTooLargeError extends Error {
  constructor(public readonly maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
  }
}

/**
 * A checksummed file store (the default; GridFS is not exercised by the tests): content is streamed to a
 * temporary file while its SHA-256 and size are computed, fsynced, then renamed into place, so a blob is either
 * complete or absent. Files are sharded by the first two characters of the id.
 */
export class FileBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  private file(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error('invalid blob id');
    return path.join(this.dir, id.slice(0, 2), id);
  }

  async put(input: Readable, opts: { maxBytes?: number } = {}): Promise<StoredBlob> {
    // a write buffer of 1 MiB (streams default to 16 KiB): the source keeps reading while the file is written,
    // instead of the two taking turns (a 50 MB upload's socket pauses at every 16 KiB otherwise)
    const id = randomUUID();
    const final = this.file(id);
    await mkdir(path.dirname(final), { recursive: true });
    const tmp = `${final}.part`;
    const hash = createHash('sha256');
    let size = 0;
    const max = opts.maxBytes ?? Number.POSITIVE_INFINITY;
    const meter = new Transform({
      highWaterMark: WRITE_BUFFER,
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > max) return cb(new BlobTooLargeError(max));
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(input, meter, createWriteStream(tmp, { highWaterMark: WRITE_BUFFER }));
      const fh = await open(tmp, 'r');
      await fh.sync();
      await fh.close();
      await rename(tmp, final);
    } catch (err) {
      input.resume();
      await rm(tmp, { force: true });
      throw err;
    }
    return { id, size, sha256: hash.digest('hex') };
  }

  async get(id: string): Promise<Readable> {
    const f = this.file(id);
    await stat(f);
    return createReadStream(f);
  }

  async size(id: string): Promise<number> {
    return (await stat(this.file(id))).size;
  }

  async remove(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }
}
