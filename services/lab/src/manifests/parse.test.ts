import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { MANIFEST_MSG } from '@onco/domain';
import { encryptedWorkbook, manifestFile, zipBomb } from '../../test/manifests';
import { ManifestFileError } from './manifest-file';
import { closeParseThread, keptParseThreadId, parseManifestFile, prewarmParseThread } from './parse';
import { extractSheet, packRows, unpackRows } from './sheet';
import { contentKind, sniffManifest, zipUnpackedSize } from './sniff';

const LIMITS = { maxRows: 10, maxColumns: 5 };

describe('sniffManifest: the bytes must be what the name says', () => {
  const refuse = (buf: Buffer, format: 'xlsx' | 'xls' | 'csv') => {
    try {
      sniffManifest(buf, format);
    } catch (err) {
      expect(err).toBeInstanceOf(ManifestFileError);
      return (err as Error).message;
    }
    return null;
  };
  it('accepts real files of each format', () => {
    for (const f of ['xlsx', 'xls', 'csv'] as const)
      expect(refuse(manifestFile([['a'], ['b']], f), f)).toBeNull();
  });
  it('names what a file really is', () => {
    expect(refuse(Buffer.from('%PDF-1.7 x'), 'xlsx')).toMatch(/named \.xlsx but is a PDF document/);
    expect(refuse(manifestFile([['a']], 'xlsx'), 'csv')).toMatch(/named \.csv but is an \.xlsx workbook/);
    expect(refuse(Buffer.from('a,b\n1,2\n'), 'xls')).toMatch(/named \.xls but is plain text/);
    expect(refuse(encryptedWorkbook(), 'xlsx')).toMatch(/password-protected/);
    expect(refuse(Buffer.from([0xff, 0xfe, 0x41, 0x00]), 'csv')).toMatch(/UTF-16/);
    expect(refuse(Buffer.from('TRF #,Caf\xe9\n', 'latin1'), 'csv')).toMatch(/not UTF-8/);
    expect(refuse(Buffer.from('TRF #\tSample Type\n'), 'csv')).toMatch(/separated by tabs/);
    expect(refuse(Buffer.alloc(0), 'csv')).toBe('The file is empty.');
  });
  it('reads the unpacked size of a zip from its directory, and refuses a zip bomb', () => {
    expect(zipUnpackedSize(manifestFile([['a']], 'xlsx'))).toBeGreaterThan(0);
    const bomb = zipBomb(450);
    expect(contentKind(bomb)).toBe('zip');
    expect(zipUnpackedSize(bomb)).toBeGreaterThan(400 * 1024 * 1024);
    expect(refuse(bomb, 'xlsx')).toMatch(/unpacks to more than 400 MB/);
  });
});

describe('extractSheet', () => {
  it('gives text cells: dates as YYYY-MM-DD, numbers as text, CSV values untouched', () => {
    const x = extractSheet(
      XLSX,
      manifestFile(
        [
          ['A', 'B'],
          [new Date(2026, 0, 5), 42],
        ],
        'xlsx',
      ),
      'xlsx',
      LIMITS,
    );
    expect(x).toMatchObject({
      ok: true,
      rows: [
        ['A', 'B'],
        ['2026-01-05', '42'],
      ],
      truncated: false,
    });
    const c = extractSheet(XLSX, Buffer.from('A,B\n007,01/02/2026\n'), 'csv', LIMITS);
    expect(c).toMatchObject({
      ok: true,
      rows: [
        ['A', 'B'],
        ['007', '01/02/2026'],
      ],
    });
  });
  it('stops at the row limit and says so; refuses a sheet too wide', () => {
    const rows = [['A'], ...Array.from({ length: 30 }, (_, i) => [`r${i}`])];
    const r = extractSheet(XLSX, manifestFile(rows, 'xlsx'), 'xlsx', LIMITS);
    expect(r.ok && r.rows.length).toBe(12);
    expect(r.ok && r.truncated).toBe(true);
    const wide = extractSheet(XLSX, manifestFile([['a', 'b', 'c', 'd', 'e', 'f']], 'xlsx'), 'xlsx', LIMITS);
    expect(wide).toEqual({ ok: false, message: expect.stringMatching(/Too many columns: the sheet has 6/) });
    // the thread's texts are MANIFEST_MSG's, spelled out (the thread runs extractSheet without imports)
    expect(wide).toEqual({ ok: false, message: MANIFEST_MSG.sheetTooWide(6, LIMITS.maxColumns) });
    const junk = extractSheet(
      XLSX,
      Buffer.from([0x50, 0x4b, 3, 4, ...new Array(26).fill(0)]),
      'xlsx',
      LIMITS,
    );
    expect(junk).toEqual({ ok: false, message: MANIFEST_MSG.unreadable('xlsx', 'Unsupported ZIP file') });
    // (SheetJS takes this one for an encrypted workbook)
    const odd = extractSheet(XLSX, Buffer.from('PK\u0003\u0004 not really a zip'), 'xlsx', LIMITS);
    expect(odd).toEqual({ ok: false, message: MANIFEST_MSG.encrypted });
  });
});

describe('parseManifestFile: in a worker thread with a heap and a time limit', () => {
  it('parses in the thread', async () => {
    const r = await parseManifestFile(manifestFile([['A'], ['x']], 'xls'), 'xls');
    expect(r.rows).toEqual([['A'], ['x']]);
  });
  it('a parse that runs out of its heap or time fails with a reason; this process lives on', async () => {
    const rows = [['A', 'B'], ...Array.from({ length: 50_000 }, (_, i) => [`row ${i} ${'x'.repeat(50)}`, i])];
    const buf = manifestFile(rows, 'xlsx');
    await expect(parseManifestFile(buf, 'xlsx', { heapMb: 8 })).rejects.toThrow(/memory|could not be read/);
    await expect(parseManifestFile(buf, 'xlsx', { timeoutMs: 5 })).rejects.toThrow(/took longer than/);
    expect((await parseManifestFile(buf, 'xlsx')).rows).toHaveLength(50_001);
  }, 60_000);
  it('files parsed at once and one after the other (the kept thread, and a thread of its own when it is busy)', async () => {
    const a = manifestFile([['A'], ['x']], 'csv');
    const b = manifestFile([['B'], ['y']], 'xlsx');
    const both = await Promise.all([parseManifestFile(a, 'csv'), parseManifestFile(b, 'xlsx')]);
    expect(both.map((r) => r.rows)).toEqual([
      [['A'], ['x']],
      [['B'], ['y']],
    ]);
    expect((await parseManifestFile(b, 'xlsx')).rows).toEqual([['B'], ['y']]);
    await closeParseThread();
    expect((await parseManifestFile(a, 'csv')).rows).toEqual([['A'], ['x']]);
    await closeParseThread();
  });
  it('prewarmParseThread starts the kept thread ahead of a file, and the next parse uses it', async () => {
    await closeParseThread();
    expect(keptParseThreadId()).toBeNull();
    prewarmParseThread();
    const id = keptParseThreadId();
    expect(id).toBeGreaterThan(0);
    prewarmParseThread(); // nothing while it is there
    expect(keptParseThreadId()).toBe(id);
    const r = await parseManifestFile(manifestFile([['A'], ['x']], 'xlsx'), 'xlsx');
    expect(r.rows).toEqual([['A'], ['x']]);
    expect(keptParseThreadId()).toBe(id);
    await closeParseThread();
    expect(keptParseThreadId()).toBeNull();
  });
});

describe('packRows: the hand-off of the rows from the parse thread as one string and the cell lengths', () => {
  it('gives back the same rows: empty cells, one-column rows, any character, long cells', () => {
    for (const rows of [
      [
        ['a', '', 'c'],
        ['', '', ''],
        ['x,y', '"q"', 'line\nbreak'],
      ],
      [['one'], [''], ['three']],
      [
        ['a\u0000b', '\u0001', '😀é'],
        ['x'.repeat(70_000), '', 'z'],
      ],
    ]) {
      const packed = packRows(rows);
      expect(packed).not.toBeNull();
      expect(packed!.lengths.length).toBe(rows.length * rows[0].length);
      expect(unpackRows(packed!)).toEqual(rows);
    }
  });
  it('declines (the rows go as they are) when rows differ in width or there are none', () => {
    expect(packRows([['a', 'b'], ['c']])).toBeNull();
    expect(packRows([])).toBeNull();
    expect(packRows([[]])).toBeNull();
  });
  it('refuses lengths that do not match the text', () => {
    const packed = packRows([['ab', 'c']])!;
    expect(() => unpackRows({ ...packed, text: 'abcd' })).toThrow(/do not match/);
  });
  it('parseManifestFile returns a cell with a separator character intact', async () => {
    const buf = Buffer.from('TRF #,Specimen ID\nT-1,a\u0001b\n', 'utf8');
    const parsed = await parseManifestFile(buf, 'csv');
    expect(parsed.rows).toEqual([
      ['TRF #', 'Specimen ID'],
      ['T-1', 'a\u0001b'],
    ]);
  });
});
