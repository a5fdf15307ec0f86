import type { Model } from 'mongoose';
import type { Filter, ListQuery, ListResult } from '@onco/platform';
import type { Icd10CodeDoc } from './models/codes';
import { readRevision } from './importers/common';
import { ICD10_DATA_SET } from './importers/icd10';

export interface Icd10ApiRow {
  id: string;
  code: string;
  formattedCode: string;
  description: string;
}

interface Row extends Icd10ApiRow {
  deleted: boolean;
  /** lower-case text searched by q */
  formattedLc: string;
  codeLc: string;
  descriptionLc: string;
}

const FIELD: Record<string, keyof Row> = {
  _id: 'id',
  id: 'id',
  code: 'code',
  formattedCode: 'formattedCode',
  description: 'description',
  deleted: 'deleted',
};

function matches(row: Row, f: Filter): boolean {
  const key = FIELD[f.path];
  if (!key) return false;
  const v = row[key];
  switch (f.op) {
    case 'eq':
      return v === f.values[0];
    case 'in':
      return f.values.includes(v);
    case 'nin':
      return !f.values.includes(v);
    case 'between':
      return (v as any) >= (f.values[0] as any) && (v as any) <= (f.values[1] as any);
  }
}

/**
 * The ICD-10-CM codes held in memory for the picker's search (GET /dxs/api/v1/icddx).
 *
 * Why: the picker searches a case-insensitive substring of code or description over 74,719 rows on every
 * keystroke; no index serves an unanchored substring (on MongoDB or DocumentDB it is a scan of the collection,
 * plus another for the count). The codes change only when an importer runs, so they are read once (~10 MB) and
 * searched in memory (milliseconds); each request reads the data set's revision stamp (by _id, cheap) and
 * reloads after an import. (It was first written because FerretDB v1 scanned for every filter but _id.)
 * The semantics are those of the list engine: filters eq/in/!in/between on code, formattedCode and id; q as a
 * case-insensitive substring of formattedCode, code or description; sort by one field then id; pages.
 */
export class Icd10Catalog {
  private rows: Row[] = [];
  private revision: string | null | undefined = undefined;
  private loading: Promise<void> | null = null;

  constructor(private readonly model: Model<Icd10CodeDoc>) {}

  get size(): number {
    return this.rows.length;
  }

  /** Reload when the stamped revision differs from the loaded one (or nothing is loaded yet). */
  async ensureFresh(): Promise<void> {
    const revision = await readRevision(this.model, ICD10_DATA_SET);
    if (revision === this.revision && !this.loading) return;
    if (!this.loading) {
      this.loading = this.load(revision).finally(() => {
        this.loading = null;
      });
    }
    await this.loading;
  }

  private async load(revision: string | null): Promise<void> {
    const docs = await this.model.collection
      .find({}, { projection: { code: 1, formattedCode: 1, description: 1, deleted: 1 }, batchSize: 5000 })
      .toArray();
    const rows: Row[] = docs.map((d: any) => ({
      id: String(d._id),
      code: d.code,
      formattedCode: d.formattedCode,
      description: d.description,
      deleted: d.deleted === true,
      formattedLc: String(d.formattedCode).toLowerCase(),
      codeLc: String(d.code).toLowerCase(),
      descriptionLc: String(d.description).toLowerCase(),
    }));
    rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    this.rows = rows;
    this.revision = revision;
  }

  /**
   * The codes (dotted like C50.911, or without the dot) that are not valid billable ICD-10-CM codes: not in the
   * imported release, or retired by a newer import (deleted). The release holds only billable (leaf) codes, so
   * a category such as C50 is not billable. Used by the billing service's pre-submit checks.
   */
  async invalidCodes(codes: readonly string[]): Promise<string[]> {
    await this.ensureFresh();
    if (this.billable === null || this.billableRevision !== this.revision) {
      this.billable = new Set(this.rows.filter((r) => !r.deleted).map((r) => r.code));
      this.billableRevision = this.revision;
    }
    const billable = this.billable;
    return codes.filter((c) => !billable.has(c.replace('.', '').trim().toUpperCase()));
  }

  private billable: Set<string> | null = null;
  private billableRevision: string | null | undefined = undefined;

  async list(query: ListQuery): Promise<ListResult<Icd10ApiRow>> {
    await this.ensureFresh();
    const q = query.q?.toLowerCase();
    let hits = this.rows.filter(
      (r) =>
        (query.includeDeleted || !r.deleted) &&
        query.filters.every((f) => matches(r, f)) &&
        (!q || r.formattedLc.includes(q) || r.codeLc.includes(q) || r.descriptionLc.includes(q)),
    );
    const key = FIELD[query.sort.path] ?? 'code';
    const dir = query.sort.order === 'asc' ? 1 : -1;
    if (key !== 'code' || dir !== 1) {
      hits = [...hits].sort((a, b) => {
        const x = a[key] as string;
        const y = b[key] as string;
        return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * dir;
      });
    }
    const start = query.page * query.perPage;
    return {
      content: hits
        .slice(start, start + query.perPage)
        .map(({ id, code, formattedCode, description }) => ({ id, code, formattedCode, description })),
      totalElements: hits.length,
    };
  }
}
