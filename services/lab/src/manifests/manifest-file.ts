import type { Readable } from 'node:stream';
import { MANIFEST_MSG } from '@onco/domain';

/** A manifest file's format (parse.ts reads all three). */
export type ManifestFormat = 'xlsx' | 'xls' | 'csv';

export const formatOfName = (name: string): ManifestFormat | null => {
  const l = name.toLowerCase();
  return l.endsWith('.xlsx') ? 'xlsx' : l.endsWith('.xls') ? 'xls' : l.endsWith('.csv') ? 'csv' : null;
};

export class ManifestFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestFileError';
  }
}

/** the largest file read (the upload limit) */
export const MANIFEST_MAX_BYTES = 50 * 1024 * 1024;

/** Read a stored file into memory, refusing past `max` bytes. */
export async function readBlob(stream: Readable, max = MANIFEST_MAX_BYTES): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      throw new ManifestFileError(MANIFEST_MSG.tooLarge(max / 1024 / 1024));
    }
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}
