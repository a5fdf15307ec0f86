import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A field or a file of a multipart/form-data body. */
export type Part =
  { name: string; value: string } | { name: string; filename: string; contentType?: string; data: Buffer };

/**
 * A multipart/form-data body built by hand (what a browser's FormData sends); a file part without a
 * `contentType` gets `fileType`. Returns the body with its content type (also as headers).
 */
export function multipart(parts: Part[], fileType = 'application/octet-stream') {
  const boundary = `----onco${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? fileType}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const contentType = `multipart/form-data; boundary=${boundary}`;
  return { payload: Buffer.concat(chunks), contentType, headers: { 'content-type': contentType } };
}

/** Every file in a FileBlobStore directory (sharded as <dir>/<2 chars>/<id>), partial writes (`.part`) too, sorted. */
export async function storeFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const shard of await readdir(dir).catch(() => [] as string[]))
    for (const f of await readdir(path.join(dir, shard)).catch(() => [] as string[])) out.push(f);
  return out.sort();
}

/** The complete blobs in a FileBlobStore directory (partial writes excluded), sorted. */
export const blobFiles = async (dir: string) => (await storeFiles(dir)).filter((f) => !f.endsWith('.part'));

/** The partial writes (`.part`) in a FileBlobStore directory, sorted. */
export const partFiles = async (dir: string) => (await storeFiles(dir)).filter((f) => f.endsWith('.part'));
