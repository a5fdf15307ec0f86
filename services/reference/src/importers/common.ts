import { randomUUID } from 'node:crypto';
import type { Model, mongo } from 'mongoose';
import { newRecordAudit } from '@onco/platform';

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
   * insert: insertMany (ordered: false) into an empty collection; much faster than upserts.
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

/**
 * Writes one data set's rows by natural key, as a difference against what the collection holds:
 *  - rows whose key is new are inserted with insertMany (ordered: false) in batches;
 *  - rows that changed are updated one updateOne at a time, by _id (a few per release);
 *  - unchanged rows are not written at all.
 *
 * Why not bulkWrite(updateOne ... upsert) of every row: comparing first is cheaper on any server (a re-import of
 * an unchanged release writes nothing, and a release changes a few rows). (It also avoided a FerretDB v1 hang on
 * bulk updates, the store before DocumentDB.)
 */
export class KeyedWriter<Row extends Record<string, unknown>> {
  private pending: Array<Record<string, unknown>> = [];
  batches = 0;

  constructor(
    private readonly collection: mongo.Collection<any>,
    private readonly opts: {
      mode: 'insert' | 'upsert';
      batchSize: number;
      by: string;
      /** the _id of a new row */
      idOf: (row: Row) => string;
      /** the current documents by natural key (upsert mode) */
      existing: Map<string, Record<string, unknown>>;
      keyOf: (row: Row) => string;
      /** the fields compared and written */
      fields: Array<keyof Row & string>;
      result: ImportResult;
      onBatch?: () => void;
    },
  ) {}

  async write(row: Row): Promise<void> {
    const { existing, keyOf, fields, result, by } = this.opts;
    const prev = this.opts.mode === 'upsert' ? existing.get(keyOf(row)) : undefined;
    if (!prev) {
      this.pending.push({ _id: this.opts.idOf(row), ...row, ...newRecordAudit(by) });
      if (this.pending.length >= this.opts.batchSize) await this.flush();
      return;
    }
    const changed = prev.deleted === true || fields.some((f) => !sameValue(prev[f], row[f]));
    if (!changed) {
      result.unchanged += 1;
      return;
    }
    const set: Record<string, unknown> = { deleted: false, updatedOn: new Date(), updatedBy: by };
    for (const f of fields) set[f] = row[f];
    await this.collection.updateOne({ _id: prev._id }, { $set: set, $inc: { version: 1 } });
    result.updated += 1;
  }

  /** Soft-delete a document the source no longer has (one updateOne, by _id). */
  async remove(prev: Record<string, unknown>): Promise<void> {
    if (prev.deleted === true) return;
    await this.collection.updateOne(
      { _id: prev._id },
      { $set: { deleted: true, updatedOn: new Date(), updatedBy: this.opts.by }, $inc: { version: 1 } },
    );
    this.opts.result.removed = (this.opts.result.removed ?? 0) + 1;
  }

  async flush(): Promise<void> {
    if (this.pending.length) {
      const docs = this.pending;
      this.pending = [];
      try {
        const res = await this.collection.insertMany(docs, { ordered: false });
        this.opts.result.inserted += res.insertedCount;
      } catch (err: any) {
        if (err?.code === 11000 || err?.writeErrors?.some?.((e: any) => e?.code === 11000)) {
          throw new Error(
            `import in insert mode found codes that are already stored (use mode "upsert"): ${err.message}`,
          );
        }
        throw err;
      }
    }
    this.batches += 1;
    this.opts.onBatch?.();
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return (a ?? null) === (b ?? null);
}

/** The documents of a collection by natural key (one read; upsert mode compares against it). */
export async function existingByKey(
  collection: mongo.Collection<any>,
  key: string,
  fields: string[],
): Promise<Map<string, Record<string, unknown>>> {
  const projection: Record<string, 1> = { [key]: 1, deleted: 1 };
  for (const f of fields) projection[f] = 1;
  const docs = await collection.find({}, { projection, batchSize: 5000 }).toArray();
  return new Map(docs.map((d: any) => [String(d[key]), d]));
}
