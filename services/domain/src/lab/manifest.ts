import type { SampleStatus, SpecimenKind } from '../enums';
import { SAMPLE_STATUSES, SPECIMEN_TYPES } from '../enums';
import { parseIsoDate } from '../requisition/dates';
import type { SampleForm } from './samples';

/**
 * Sample manifests (spec 3 sections 2.8 and 4.2; docs/manifests.md): a spreadsheet (.xlsx, .xls or .csv) with
 * one sample a row, uploaded to the Attachment Box as a SAMPLE_MANIFEST. This module is the pure part shared by
 * the lab's worker, its dry run and the console: the columns, how a header is recognised, how a row becomes a
 * sample form, the limits, the messages, and what samples a requisition is expected to have (reconciliation).
 * The sample rules themselves are the Samples tab's (lab/samples.ts validateSampleForm): one rule, one place.
 */

/** The manifest's columns, in the template's order. `key` names the sample field (or the row's reference). */
export const MANIFEST_COLUMNS = [
  { key: 'testRequisitionId', label: 'TRF #', aliases: ['trf', 'trfno', 'trfnumber', 'testrequisitionid'] },
  { key: 'testOrderId', label: 'Test ID', aliases: ['testid', 'testorderid', 'test'] },
  { key: 'type', label: 'Sample Type', aliases: ['sampletype', 'type', 'kind'] },
  {
    key: 'specimenId',
    label: 'Specimen ID',
    aliases: ['specimenid', 'specimen', 'specimenno', 'specimennumber', 'tubeid', 'tube'],
  },
  { key: 'limsId', label: 'LIMS ID', aliases: ['limsid', 'limssampleid'] },
  { key: 'sampleGroupId', label: 'Sample Group ID', aliases: ['samplegroupid', 'samplegroup', 'sgi'] },
  { key: 'status', label: 'Status', aliases: ['status', 'samplestatus'] },
  { key: 'specimenType', label: 'Specimen Type', aliases: ['specimentype'] },
  { key: 'sampleSite', label: 'Sample Site', aliases: ['samplesite', 'site'] },
  { key: 'limsProjectId', label: 'LIMS Project ID', aliases: ['limsprojectid', 'limsproject'] },
  { key: 'limsProjectName', label: 'LIMS Project Name', aliases: ['limsprojectname'] },
  { key: 'accessionId', label: 'Accession ID', aliases: ['accessionid', 'accession', 'accessionno'] },
  { key: 'collectedOn', label: 'Collection Date', aliases: ['collectiondate', 'collectedon', 'collected'] },
  { key: 'receivedOn', label: 'Received Date', aliases: ['receiveddate', 'receivedon', 'received'] },
  { key: 'trackingNumber', label: 'Tracking Number', aliases: ['trackingnumber', 'tracking'] },
  { key: 'name', label: 'Sample Name', aliases: ['samplename', 'name'] },
  {
    key: 'containerLocationValue',
    label: 'Container Location',
    aliases: ['containerlocation', 'containerlocationvalue'],
  },
  { key: 'doNotExhaust', label: 'Do Not Exhaust', aliases: ['donotexhaust', 'dne'] },
] as const;

export type ManifestColumnKey = (typeof MANIFEST_COLUMNS)[number]['key'];
export const MANIFEST_HEADERS: string[] = MANIFEST_COLUMNS.map((c) => c.label);
/** The label of a column key, as the template and the error messages name it. */
export const manifestLabel = (key: ManifestColumnKey) => MANIFEST_COLUMNS.find((c) => c.key === key)!.label;

/** Limits (docs/manifests.md "Limits"): past them a manifest is refused whole, with the reason. */
export const MANIFEST_LIMITS = {
  /** data rows (the header not counted) */
  maxRows: 100_000,
  /** columns of the header row */
  maxColumns: 50,
  /** characters in one cell */
  maxCellChars: 1_000,
  /** the bytes a workbook's compressed parts may unpack to (zip bomb guard) */
  maxUnpackedBytes: 400 * 1024 * 1024,
  /** errors kept and shown (the count says how many there were) */
  maxErrors: 1_000,
} as const;

export const MANIFEST_MSG = {
  noRows: 'The manifest has no sample rows: add one row per sample under the header row.',
  noHeader: 'The first row must be the header row with the column names (download the template).',
  missingColumn: (label: string) => `Missing column: ${label} (download the template for the column names).`,
  missingReference: 'Missing column: TRF # or Test ID (one of them names the requisition of each row).',
  duplicateColumn: (label: string) => `The column ${label} appears twice.`,
  tooManyRows: (n: number) =>
    `Too many rows: a manifest may have at most ${n.toLocaleString('en-US')} sample rows.`,
  tooManyColumns: (n: number) => `Too many columns: a manifest may have at most ${n} columns.`,
  cellTooLong: (n: number) => `The value is longer than ${n} characters.`,
  formula: 'Formulas are not accepted: enter the value itself.',
  required: (label: string) => `${label} is required.`,
  referenceRequired: 'TRF # or Test ID is required.',
  invalidType: (v: string) => `Invalid sample type "${v}": use ${SPECIMEN_TYPES.join(', ')}.`,
  invalidStatus: (v: string) => `Invalid status "${v}": use ${SAMPLE_STATUSES.join(', ')}.`,
  invalidDate: (v: string) => `Invalid date "${v}": use YYYY-MM-DD or MM/DD/YYYY.`,
  invalidBoolean: (v: string) => `Invalid value "${v}": use Y or N.`,
  duplicateSpecimen: (id: string, row: number) =>
    `Specimen ID ${id} appears twice in the file (also row ${row}).`,
  unknownRequisition: (ref: string) =>
    `${ref} was not found among the submitted requisitions of your accounts.`,
  referenceMismatch: (trf: string, test: string) => `Test ID ${test} does not belong to TRF # ${trf}.`,
  limsIdMismatch: (given: string, stored: string | null) =>
    `LIMS ID ${given} does not match the sample's LIMS ID ${stored ?? '(none)'}.`,
  notAllowed: 'You may not change samples (permission VIEW_SAMPLE_ACTIONS).',
  alreadyApplied: (name: string, on: string) =>
    `This file was already applied as ${name} on ${on} (same content): nothing was changed.`,
  fix: (name: string) => `Fix the rows with errors in file: ${name}, and re-upload`,
  // the file as a whole (services/lab/src/manifests: reading and parsing it)
  empty: 'The file is empty.',
  encrypted: 'The workbook is password-protected (encrypted): remove the password and upload it again.',
  utf16: 'The file is UTF-16 text: save it as "CSV UTF-8 (comma delimited)".',
  notUtf8:
    'The file is not UTF-8 text (another encoding, e.g. Windows-1252): save it as "CSV UTF-8 (comma delimited)".',
  csvNotText: (what: string) => `The file is named .csv but is ${what}: save it as CSV.`,
  delimiter: (shown: string) =>
    `The columns are separated by ${shown}: save the file as CSV with commas (or as .xlsx).`,
  wrongKind: (format: string, actual: string) =>
    `The file is named .${format} but is ${actual}: save it from the spreadsheet program as .${format}.`,
  unpacksTooLarge: (mb: number | string) =>
    `The workbook unpacks to more than ${mb} MB (or its zip directory is unreadable): it is refused.`,
  unreadable: (format: string, reason: string) => `The file could not be read as .${format}: ${reason}`,
  sheetTooWide: (width: number | string, max: number | string) =>
    `Too many columns: the sheet has ${width}; a manifest may have at most ${max}.`,
  timeout: (seconds: number | string) => `Reading the file took longer than ${seconds} s: it is refused.`,
  outOfMemory: 'Reading the file needed more memory than allowed: it is too large or malformed.',
  readerStopped: (code: number | string) =>
    `The file could not be read (the reader stopped with code ${code}).`,
  tooLarge: (mb: number | string) => `The file is larger than ${mb} MB.`,
  requisitionDeleted: 'The requisition is deleted: its samples cannot be changed.',
  notProcessed: 'The manifest could not be processed.',
} as const;
export type ManifestMessageKey = keyof typeof MANIFEST_MSG;

/** One problem of a manifest: its spreadsheet row (the header is row 1; 0 for the file as a whole). */
export interface ManifestError {
  row: number;
  column: string | null;
  message: string;
}

/** Lower-case letters and digits only: "TRF #" -> "trf", "Specimen ID" -> "specimenid". */
export const normaliseHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

export interface ManifestHeader {
  /** file column index per column key */
  index: Partial<Record<ManifestColumnKey, number>>;
  /** the header as written in the file (for messages and the error file) */
  names: string[];
  errors: ManifestError[];
}

/**
 * Recognise the header row: each column by its label or an alias (case, spaces and punctuation ignored).
 * Unknown columns are ignored (kept in the error file). Missing Sample Type or Specimen ID, or both TRF # and
 * Test ID, is a file error; a column named twice too. A single column whose name holds ';', tab or '|' is
 * reported as the wrong delimiter.
 */
export function readManifestHeader(cells: readonly string[]): ManifestHeader {
  const names = cells.map((c) => (c ?? '').trim());
  const errors: ManifestError[] = [];
  const index: ManifestHeader['index'] = {};
  if (names.every((n) => n === ''))
    return { index, names, errors: [{ row: 1, column: null, message: MANIFEST_MSG.noHeader }] };
  names.forEach((name, i) => {
    const n = normaliseHeader(name);
    if (!n) return;
    const col = MANIFEST_COLUMNS.find(
      (c) => normaliseHeader(c.label) === n || (c.aliases as readonly string[]).includes(n),
    );
    if (!col) return;
    if (index[col.key] !== undefined)
      errors.push({ row: 1, column: name, message: MANIFEST_MSG.duplicateColumn(col.label) });
    else index[col.key] = i;
  });
  const nonEmpty = names.filter(Boolean);
  const delimiter = nonEmpty.length === 1 ? [';', '\t', '|'].find((d) => nonEmpty[0].includes(d)) : undefined;
  if (delimiter && Object.keys(index).length === 0) {
    const shown = delimiter === '\t' ? 'tabs' : `"${delimiter}"`;
    errors.push({ row: 1, column: null, message: MANIFEST_MSG.delimiter(shown) });
    return { index, names, errors };
  }
  if (index.testRequisitionId === undefined && index.testOrderId === undefined)
    errors.push({ row: 1, column: null, message: MANIFEST_MSG.missingReference });
  for (const key of ['type', 'specimenId'] as const)
    if (index[key] === undefined)
      errors.push({ row: 1, column: null, message: MANIFEST_MSG.missingColumn(manifestLabel(key)) });
  return { index, names, errors };
}

/** 'YYYY-MM-DD', 'MM/DD/YYYY' or 'M/D/YYYY' -> 'YYYY-MM-DD'; null when not a real date. */
export function parseManifestDate(value: string): string | null {
  const v = value.trim();
  const iso = parseIsoDate(v.length > 10 && /^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v);
  if (iso) return iso;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  if (!m) return null;
  return parseIsoDate(`${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`);
}

const YES = new Set(['y', 'yes', 'true', '1', 'x']);
const NO = new Set(['n', 'no', 'false', '0']);

/** A row read from the file: its reference to a requisition, the sample's identity and the fields it sets. */
export interface ManifestRow {
  row: number;
  testRequisitionId: string | null;
  testOrderId: string | null;
  type: SpecimenKind | null;
  specimenId: string | null;
  limsId: string | null;
  /** the sample fields given (a blank cell is absent: an update keeps the stored value) */
  fields: Partial<Omit<SampleForm, 'type' | 'specimenId'>> & { containerLocationValue?: string };
  errors: ManifestError[];
}

/**
 * One data row -> a ManifestRow (values trimmed; sample type, status and specimen type upper-cased; dates
 * normalised). Problems of the row itself (a required cell blank, a bad value) are in `errors`; the sample
 * rules run later, with the requisition (lab sample-service).
 */
export function readManifestRow(header: ManifestHeader, cells: readonly string[], row: number): ManifestRow {
  // no closures made per row (a manifest has up to 100,000): cellOf / columnOf below
  const errors: ManifestError[] = [];
  const out: ManifestRow = {
    row,
    testRequisitionId: cellOf(header, cells, 'testRequisitionId'),
    testOrderId: cellOf(header, cells, 'testOrderId'),
    type: null,
    specimenId: cellOf(header, cells, 'specimenId'),
    limsId: cellOf(header, cells, 'limsId'),
    fields: {},
    errors,
  };
  if (!out.testRequisitionId && !out.testOrderId)
    errors.push({
      row,
      column: columnOf(header, 'testRequisitionId') ?? columnOf(header, 'testOrderId'),
      message: MANIFEST_MSG.referenceRequired,
    });
  const type = cellOf(header, cells, 'type');
  if (!type)
    errors.push({
      row,
      column: columnOf(header, 'type'),
      message: MANIFEST_MSG.required(manifestLabel('type')),
    });
  else {
    const upper = type.toUpperCase();
    if ((SPECIMEN_TYPES as readonly string[]).includes(upper)) out.type = upper as SpecimenKind;
    else errors.push({ row, column: columnOf(header, 'type'), message: MANIFEST_MSG.invalidType(type) });
  }
  if (!out.specimenId)
    errors.push({
      row,
      column: columnOf(header, 'specimenId'),
      message: MANIFEST_MSG.required(manifestLabel('specimenId')),
    });

  // each field by name (a store by a computed key is several times slower, ~100,000 rows a file)
  const f = out.fields;
  let v: string | null;
  if ((v = cellOf(header, cells, 'sampleGroupId')) !== null) f.sampleGroupId = v;
  if ((v = cellOf(header, cells, 'specimenType')) !== null) f.specimenType = upperWord(v);
  if ((v = cellOf(header, cells, 'sampleSite')) !== null) f.sampleSite = v;
  if ((v = cellOf(header, cells, 'limsProjectId')) !== null) f.limsProjectId = v;
  if ((v = cellOf(header, cells, 'limsProjectName')) !== null) f.limsProjectName = v;
  if ((v = cellOf(header, cells, 'accessionId')) !== null) f.accessionId = v;
  if ((v = cellOf(header, cells, 'trackingNumber')) !== null) f.trackingNumber = v;
  if ((v = cellOf(header, cells, 'name')) !== null) f.name = v;
  if ((v = cellOf(header, cells, 'containerLocationValue')) !== null) f.containerLocationValue = v;
  const status = cellOf(header, cells, 'status');
  if (status !== null) {
    const s = upperWord(status);
    if ((SAMPLE_STATUSES as readonly string[]).includes(s)) out.fields.status = s as SampleStatus;
    else
      errors.push({ row, column: columnOf(header, 'status'), message: MANIFEST_MSG.invalidStatus(status) });
  }
  for (const key of DATE_KEYS) {
    const v = cellOf(header, cells, key);
    if (v === null) continue;
    const d = parseManifestDate(v);
    if (d) out.fields[key] = d;
    else errors.push({ row, column: columnOf(header, key), message: MANIFEST_MSG.invalidDate(v) });
  }
  const dne = cellOf(header, cells, 'doNotExhaust');
  if (dne !== null) {
    const l = dne.toLowerCase();
    if (YES.has(l)) out.fields.doNotExhaust = true;
    else if (NO.has(l)) out.fields.doNotExhaust = false;
    else
      errors.push({
        row,
        column: columnOf(header, 'doNotExhaust'),
        message: MANIFEST_MSG.invalidBoolean(dne),
      });
  }
  return out;
}

const DATE_KEYS = ['collectedOn', 'receivedOn'] as const;

/** A row's cell of a column, trimmed; null when the column is absent or the cell blank. */
function cellOf(header: ManifestHeader, cells: readonly string[], key: ManifestColumnKey): string | null {
  const i = header.index[key];
  if (i === undefined) return null;
  const raw = cells[i];
  if (!raw) return null;
  const v = raw.trim();
  return v === '' ? null : v;
}

/** A column's name as the file writes it (its label when blank); null when the file has no such column. */
function columnOf(header: ManifestHeader, key: ManifestColumnKey): string | null {
  const i = header.index[key];
  return i === undefined ? null : header.names[i] || manifestLabel(key);
}

/** Upper case, runs of white space as one underscore ("ffpe slides" -> "FFPE_SLIDES"). */
const upperWord = (v: string) => {
  const u = v.toUpperCase();
  return /\s/.test(u) ? u.replace(/\s+/g, '_') : u;
};

/** A cell counts as blank when it is empty or only spaces; a row of blank cells is skipped. */
export const isBlankRow = (cells: readonly string[]) => cells.every((c) => (c ?? '').trim() === '');

/**
 * Spreadsheet formula injection (OWASP "CSV injection"): a value that starts with =, +, -, @, tab or carriage
 * return is prefixed with a single quote in files we generate, so a spreadsheet shows it as text.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * Reconciliation: the sample kinds a requisition is expected to have. A tumor-informed test (NEXT_DX,
 * NEXT_PERSONAL_DX initial order) needs a tumor and a matched normal; a subsequent (monitoring) order needs a
 * plasma draw. Decision (docs/manifests.md): the lab's LIMS would refine this per assay.
 */
export function expectedSampleKinds(req: { testOrders: readonly { orderType: string }[] }): SpecimenKind[] {
  const subsequent = req.testOrders.some((t) => t.orderType === 'SUBSEQUENT_ORDER');
  return subsequent ? ['PLASMA'] : ['TUMOR', 'NORMAL'];
}

/** The errors as the attachment's errorDetails text: one line per error, "Row N, Column: message". */
export function manifestErrorText(errors: readonly ManifestError[], total = errors.length): string {
  const lines = errors.map((e) => {
    const where = e.row > 0 ? `Row ${e.row}` : 'File';
    return `${where}${e.column ? `, ${e.column}` : ''}: ${e.message}`;
  });
  if (total > errors.length)
    lines.push(`... and ${total - errors.length} more errors (download the error file).`);
  return lines.join('\n');
}
