import * as XLSX from '@e965/xlsx';
import { MANIFEST_COLUMNS, MANIFEST_HEADERS, neutraliseCell, type ManifestError } from '@onco/domain';
import type { ManifestFormat } from './manifest-file';

/**
 * The files the Box offers (docs/manifests.md): the template and a manifest's error file, written with the
 * same parser library that reads manifests (SheetJS). Every value we write is text, neutralised against
 * spreadsheet formula injection (neutraliseCell: a leading =, +, -, @, tab or CR gets a ').
 */
export const CONTENT_TYPES: Record<ManifestFormat, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv; charset=utf-8',
};

const COLUMN_HELP: Record<string, string> = {
  testRequisitionId:
    'The TRF # of a submitted requisition (or give Test ID). Required unless Test ID is given.',
  testOrderId: 'The Test ID of one of its tests (or give TRF #).',
  type: 'TUMOR, NORMAL or PLASMA. Required.',
  specimenId:
    'The tube / specimen id: letters, digits, - and _. Required; it identifies the sample: a row with the Specimen ID of an existing sample of the requisition updates it, else a sample is created.',
  limsId: 'Optional. A new sample takes it as its LIMS ID; for an existing sample it must match.',
  sampleGroupId: 'Sample group id (SGI); required for PROCEED.',
  status:
    'ON_HOLD, PROCEED or CANCELLED (not on a new sample). Blank: a new sample is PROCEED when allowed and the row has Accession ID and Sample Group ID, else ON_HOLD; an update keeps the status.',
  specimenType:
    'Tumor: FFPE_SLIDES, FFPE_BLOCK, FRESH_FROZEN_TISSUE; normal: BLOOD, SALIVA, BUFFY_COAT; plasma: PLASMA.',
  sampleSite: 'Required for tumor samples.',
  limsProjectId: 'Required.',
  limsProjectName: 'Optional.',
  accessionId: 'Slide ids separated by spaces; required for PROCEED.',
  collectedOn: 'YYYY-MM-DD or MM/DD/YYYY (or a date cell); not in the future; before the received date.',
  receivedOn: 'YYYY-MM-DD or MM/DD/YYYY (or a date cell); plasma within 14 days of collection.',
  trackingNumber: 'Optional.',
  name: 'Optional sample name.',
  containerLocationValue: 'Optional.',
  doNotExhaust: 'Y or N (optional).',
};

const textCell = (v: string) => ({ t: 's' as const, v: neutraliseCell(v) });

function sheetOf(rows: string[][]) {
  return XLSX.utils.aoa_to_sheet(rows.map((r) => r.map(textCell)));
}

/** Rows -> a file of the format (CSV: RFC 4180, UTF-8 with a BOM so spreadsheet programs read it as UTF-8). */
export function writeRows(
  rows: string[][],
  format: ManifestFormat,
  extraSheets: [string, string[][]][] = [],
): Buffer {
  const ws = sheetOf(rows);
  if (format === 'csv')
    return Buffer.from(`\uFEFF${XLSX.utils.sheet_to_csv(ws, { blankrows: true, strip: false })}\r\n`, 'utf8');
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Manifest');
  for (const [name, r] of extraSheets) XLSX.utils.book_append_sheet(wb, sheetOf(r), name);
  return XLSX.write(wb, {
    type: 'buffer',
    bookType: format === 'xls' ? 'biff8' : 'xlsx',
    compression: true,
  }) as Buffer;
}

/** The template: the header row; the .xlsx has a second sheet "Instructions" (the parser reads the first). */
export function templateFile(format: 'csv' | 'xlsx'): Buffer {
  const help: string[][] = [
    ['Column', 'What to enter'],
    ...MANIFEST_COLUMNS.map((c) => [c.label, COLUMN_HELP[c.key] ?? '']),
  ];
  return writeRows([MANIFEST_HEADERS], format, format === 'xlsx' ? [['Instructions', help]] : []);
}

/**
 * The error file: the original rows (header included, blank rows kept, so row numbers match the messages)
 * with an added "Error" column holding each row's messages; file-level errors go on the header row.
 */
export function errorFile(
  rows: string[][],
  errors: readonly ManifestError[],
  format: ManifestFormat,
): Buffer {
  const byRow = new Map<number, string[]>();
  for (const e of errors) {
    const row = e.row > 0 ? e.row : 1;
    byRow.set(row, [
      ...(byRow.get(row) ?? []),
      e.column && e.row > 0 ? `${e.column}: ${e.message}` : e.message,
    ]);
  }
  const width = Math.max(1, ...rows.map((r) => r.length));
  const out = rows.map((r, i) => {
    const cells = [...r, ...Array(width - r.length).fill('')];
    const header = byRow.has(1) ? `Error: ${byRow.get(1)!.join('; ')}` : 'Error';
    return [...cells, i === 0 ? header : (byRow.get(i + 1) ?? []).join('; ')];
  });
  if (out.length === 0) out.push(['Error: ' + (byRow.get(1) ?? []).join('; ')]);
  return writeRows(out, format);
}
