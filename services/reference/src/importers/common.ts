import { randomUUID } from 'node:crypto';
import type { Model, mongo } from 'mongoose';

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

export async function chooseMode(
  collection: mongo.Collection<any>,
  mode: ImportOptions['mode'],
): Promise<'insert' | 'upsert'> {
  if (mode === 'insert' || mode === 'upsert') return mode;
  const any = await collection.findOne({}, { projection: { _id: 1 } });
  return any ? 'upsert' : 'insert';
}

/** Where importers stamp a new revision of a data set; readers (the ICD-10 catalog) reload when it changes. */
export const REFERENCE_META_COLLECTION = 'reference_meta';

export interface ReferenceMeta {
  _id: string;
  revision: string;
  rows: number;
  importedOn: Date;
}

/** Record that a data set changed (by _id: cheap on every server). */
export async function stampRevision(model: Model<any>, dataSet: string, rows: number): Promise<string> {
  const revision = randomUUID();
  await model.db
    .collection<ReferenceMeta>(REFERENCE_META_COLLECTION)
    .updateOne({ _id: dataSet }, { $set: { revision, rows, importedOn: new Date() } }, { upsert: true });
  return revision;
}

export async function readRevision(model: Model<any>, dataSet: string): Promise<string | null> {
  const doc = await model.db.collection<ReferenceMeta>(REFERENCE_META_COLLECTION).findOne({ _id: dataSet });
  return doc?.revision ?? null;
}
