import {
  MANIFEST_LIMITS,
  MANIFEST_MSG,
  isBlankRow,
  manifestLabel,
  readManifestRow,
  type ManifestColumnKey,
  type ManifestError,
  type ManifestHeader,
  type ManifestRow,
} from '@onco/domain';

/** A manifest's rows as the plan reads them (step 1 of planManifest), and the errors it finds in them. */

/** The sample form field a rule names -> the manifest column it comes from. */
const COLUMN_OF: Record<string, ManifestColumnKey> = {
  type: 'type',
  specimenId: 'specimenId',
  status: 'status',
  specimenType: 'specimenType',
  sampleSite: 'sampleSite',
  limsProjectId: 'limsProjectId',
  limsProjectName: 'limsProjectName',
  accessionId: 'accessionId',
  sampleGroupId: 'sampleGroupId',
  collectedOn: 'collectedOn',
  receivedOn: 'receivedOn',
  trackingNumber: 'trackingNumber',
  name: 'name',
  doNotExhaust: 'doNotExhaust',
};

/** The errors of a plan: every one counted, the first MANIFEST_LIMITS.maxErrors kept, the rows they are on. */
export class RowErrors {
  list: ManifestError[] = [];
  count = 0;
  rows = new Set<number>();
  add(e: ManifestError) {
    this.count++;
    if (e.row > 0) this.rows.add(e.row);
    if (this.list.length < MANIFEST_LIMITS.maxErrors) this.list.push(e);
  }
}

/** The name of a column as the file spells it (its header cell), else the column's own label. */
export const columnNames =
  (header: ManifestHeader) =>
  (key: ManifestColumnKey): string => {
    const i = header.index[key];
    return i === undefined ? manifestLabel(key) : header.names[i] || manifestLabel(key);
  };

/** The sample rules' problems of a row, by the columns they come from; whether there were any. */
export function refuseFields(
  errors: RowErrors,
  row: number,
  fe: Record<string, string>,
  colName: (key: ManifestColumnKey) => string,
): boolean {
  let any = false;
  for (const field in fe) {
    any = true;
    errors.add({ row, column: COLUMN_OF[field] ? colName(COLUMN_OF[field]) : field, message: fe[field] });
  }
  return any;
}

/** A row of the file that is not blank, with its spreadsheet row number. */
export interface DataRow {
  row: number;
  cells: string[];
}

/**
 * The rows that are not blank, with their spreadsheet row numbers; and the requisitions they name (step 2 reads
 * them in the store while this thread reads the rows, step 1): the TRF # and Test ID cells as readManifestRow
 * reads them (trimmed, blank = none)
 */
export function dataRows(header: ManifestHeader, rows: string[][]) {
  const data: DataRow[] = [];
  const trfSet = new Set<string>();
  const testSet = new Set<string>();
  const trfCol = header.index.testRequisitionId;
  const testCol = header.index.testOrderId;
  for (let i = 1; i < rows.length; i++) {
    const cells = rows[i];
    if (isBlankRow(cells)) continue;
    data.push({ row: i + 1, cells });
    const trf = trfCol === undefined ? '' : (cells[trfCol] ?? '').trim();
    if (trf) trfSet.add(trf);
    const test = testCol === undefined ? '' : (cells[testCol] ?? '').trim();
    if (test) testSet.add(test);
  }
  return { data, trfSet, testSet };
}

/** 1. every row read on its own: required cells, values, cell length, a tube id twice in the file (one pass) */
export function readRows(
  header: ManifestHeader,
  data: DataRow[],
  colName: (key: ManifestColumnKey) => string,
): { read: ManifestRow[]; tubes: Map<string, number> } {
  const read: ManifestRow[] = new Array(data.length);
  const tubes = new Map<string, number>();
  const maxChars = MANIFEST_LIMITS.maxCellChars;
  for (let k = 0; k < data.length; k++) {
    const { row, cells } = data[k];
    const m = readManifestRow(header, cells, row);
    for (let c = 0; c < cells.length; c++)
      if (cells[c].length > maxChars)
        m.errors.push({ row, column: header.names[c] || null, message: MANIFEST_MSG.cellTooLong(maxChars) });
    if (m.specimenId) {
      const first = tubes.get(m.specimenId);
      if (first !== undefined)
        m.errors.push({
          row,
          column: colName('specimenId'),
          message: MANIFEST_MSG.duplicateSpecimen(m.specimenId, first),
        });
      else tubes.set(m.specimenId, row);
    }
    read[k] = m;
  }
  return { read, tubes };
}
