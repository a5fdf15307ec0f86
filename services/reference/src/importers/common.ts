import type { mongo } from 'mongoose';

/** What an import did, for logs and the caller's report. */
export interface ImportResult {
  /** rows read from the source */
  read: number;
  /** rows written: inserted in insert mode; inserted (upserted) plus changed in upsert mode */
  inserted: number;
  updated: number;
  unchanged: number;
  /** rows soft-deleted because the source no longer has them (OncoTree re-import) */
  removed?: number;
  mode: 'insert' | 'upsert';
  ms: number;
}

export interface ImportProgress {
  read: number;
  written: number;
  batches: number;
}

export interface ImportOptions {
  /** rows per bulk write (default 1000) */
  batchSize?: number;
  /** called after each batch is written */
  onProgress?: (p: ImportProgress) => void;
  /**
   * upsert: one updateOne-upsert by code per row (safe on a populated collection; re-runnable).
   * insert: insertMany (ordered: false) into an empty collection; much faster on FerretDB.
   * auto (default): insert when the collection is empty, upsert otherwise.
   */
  mode?: 'auto' | 'upsert' | 'insert';
  /** who is recorded as createdBy/updatedBy (default "import") */
  by?: string;
}

/** A row of the source that is not in the expected format; names the line. */
export class ImportFormatError extends Error {
  constructor(
    message: string,
    public readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export async function chooseMode(collection: mongo.Collection<any>, mode: ImportOptions['mode']): Promise<'insert' | 'upsert'> {
  if (mode === 'insert' || mode === 'upsert') return mode;
  const any = await collection.findOne({}, { projection: { _id: 1 } });
  return any ? 'upsert' : 'insert';
}
