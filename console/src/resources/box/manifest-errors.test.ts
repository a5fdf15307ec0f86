// first: it puts the browser stand-ins in place before the app's i18n loads
import { messages } from '../../messages.testing';
import { describe, expect, it } from 'vitest';
import { MANIFEST_MSG, manifestErrorText, SAMPLE_MSG } from '@onco/domain';
import { interpolate, lookupMessage } from '../../components/messages';
import { manifestErrorsText, manifestMessageText } from './logic';

/** react-admin's translate over the app's messages of one language (the key itself when it has none) */
const translator =
  (lang: 'en' | 'zh-CN') =>
  (key: string, values: Record<string, unknown> = {}) =>
    interpolate(lookupMessage(messages[lang], key) ?? key, values);
const en = translator('en');
const zh = translator('zh-CN');
const han = /[\u4e00-\u9fff]/;

/** every MANIFEST_MSG message as the server writes it, with values of its own */
const written: Array<[string, string, string[]]> = [
  ['noRows', MANIFEST_MSG.noRows, []],
  ['noHeader', MANIFEST_MSG.noHeader, []],
  ['missingColumn', MANIFEST_MSG.missingColumn('Collection Date'), ['Collection Date']],
  ['missingReference', MANIFEST_MSG.missingReference, []],
  ['duplicateColumn', MANIFEST_MSG.duplicateColumn('Specimen ID'), ['Specimen ID']],
  ['tooManyRows', MANIFEST_MSG.tooManyRows(200_000), ['200,000']],
  ['tooManyColumns', MANIFEST_MSG.tooManyColumns(64), ['64']],
  ['cellTooLong', MANIFEST_MSG.cellTooLong(500), ['500']],
  ['formula', MANIFEST_MSG.formula, []],
  ['required', MANIFEST_MSG.required('Sample Type'), ['Sample Type']],
  ['referenceRequired', MANIFEST_MSG.referenceRequired, []],
  ['invalidType', MANIFEST_MSG.invalidType('BLOOD'), ['BLOOD']],
  ['invalidStatus', MANIFEST_MSG.invalidStatus('DONE'), ['DONE']],
  ['invalidDate', MANIFEST_MSG.invalidDate('31/31/2026'), ['31/31/2026']],
  ['invalidBoolean', MANIFEST_MSG.invalidBoolean('maybe'), ['maybe']],
  ['duplicateSpecimen', MANIFEST_MSG.duplicateSpecimen('TUBE-7', 4), ['TUBE-7', '4']],
  ['unknownRequisition', MANIFEST_MSG.unknownRequisition('TRF # TRF-000123'), ['TRF # TRF-000123']],
  ['referenceMismatch', MANIFEST_MSG.referenceMismatch('TRF-1', 'NDX-2'), ['TRF-1', 'NDX-2']],
  ['limsIdMismatch', MANIFEST_MSG.limsIdMismatch('L-9', null), ['L-9', '(none)']],
  ['notAllowed', MANIFEST_MSG.notAllowed, []],
  ['alreadyApplied', MANIFEST_MSG.alreadyApplied('m.xlsx', '11/20/2026'), ['m.xlsx', '11/20/2026']],
  ['fix', MANIFEST_MSG.fix('m.xlsx'), ['m.xlsx']],
  ['empty', MANIFEST_MSG.empty, []],
  ['encrypted', MANIFEST_MSG.encrypted, []],
  ['utf16', MANIFEST_MSG.utf16, []],
  ['notUtf8', MANIFEST_MSG.notUtf8, []],
  ['csvNotText', MANIFEST_MSG.csvNotText('a PDF document'), ['a PDF document']],
  ['delimiter', MANIFEST_MSG.delimiter('"|"'), ['"|"']],
  ['wrongKind', MANIFEST_MSG.wrongKind('xlsx', 'plain text'), ['xlsx', 'plain text']],
  ['unpacksTooLarge', MANIFEST_MSG.unpacksTooLarge(200), ['200']],
  ['unreadable', MANIFEST_MSG.unreadable('xls', 'Unsupported file'), ['xls', 'Unsupported file']],
  ['sheetTooWide', MANIFEST_MSG.sheetTooWide(1000, 64), ['1000', '64']],
  ['timeout', MANIFEST_MSG.timeout(60), ['60']],
  ['outOfMemory', MANIFEST_MSG.outOfMemory, []],
  ['readerStopped', MANIFEST_MSG.readerStopped(1), ['1']],
  ['tooLarge', MANIFEST_MSG.tooLarge(50), ['50']],
  ['requisitionDeleted', MANIFEST_MSG.requisitionDeleted, []],
  ['notProcessed', MANIFEST_MSG.notProcessed, []],
];

describe('manifest errors in the user’s language', () => {
  it('covers every message the domain writes', () => {
    expect(written.map(([k]) => k).sort()).toEqual(Object.keys(MANIFEST_MSG).sort());
  });

  it('English reads exactly as the server wrote it; Chinese is Chinese and keeps every value', () => {
    for (const [key, message, values] of written) {
      expect(manifestMessageText(message, en), key).toBe(message);
      const text = manifestMessageText(message, zh);
      expect(text, key).toMatch(han);
      for (const v of values) expect(text, key).toContain(v);
    }
    // the allowed values the English spells out are in the Chinese too
    expect(manifestMessageText(MANIFEST_MSG.invalidType('BLOOD'), zh)).toContain('TUMOR');
  });

  it('values that look like the template’s own words, and a template that ends like another', () => {
    const applied = MANIFEST_MSG.alreadyApplied('samples on monday.xlsx', '11/20/2026');
    expect(manifestMessageText(applied, en)).toBe(applied);
    const zhApplied = manifestMessageText(applied, zh);
    expect(zhApplied).toContain('作为 samples on monday.xlsx 应用过');
    expect(zhApplied).toContain('于 11/20/2026');
    // ends with "is required." like MANIFEST_MSG.required, but is the parser's reason
    const unreadable = MANIFEST_MSG.unreadable('xlsx', 'Field x is required.');
    expect(manifestMessageText(unreadable, en)).toBe(unreadable);
    expect(manifestMessageText(unreadable, zh)).toBe(
      zh('box.manifestMsg.unreadable', { format: 'xlsx', reason: 'Field x is required.' }),
    );
  });

  it('a long line with odd characters is read in linear time, and one past the limit is kept as it came', () => {
    const cell = `x: \r\u2028: `.repeat(300);
    const line = `Row 2, Name: ${MANIFEST_MSG.invalidDate(cell)}`;
    const t0 = performance.now();
    const out = manifestErrorsText(line, zh);
    // (a bound far above the normal ~1 ms: the old patterns backtracked for seconds on such a line)
    expect(performance.now() - t0).toBeLessThan(500);
    expect(out).toContain('第 2 行');
    expect(out).toContain(cell);
    const huge = `Row 3, Name: ${'a: \r '.repeat(40_000)}`;
    expect(manifestErrorsText(huge, zh)).toBe(huge);
  });

  it('a whole error text: rows, the file, columns, a sample rule, the remainder; an unknown line as it came', () => {
    const text = manifestErrorText(
      [
        { row: 0, column: null, message: MANIFEST_MSG.noRows },
        { row: 3, column: 'Specimen ID', message: MANIFEST_MSG.duplicateSpecimen('T-1', 2) },
        { row: 5, column: 'Accession #', message: SAMPLE_MSG.accessionRequired },
        { row: 6, column: null, message: 'Something only the server knows.' },
      ],
      10,
    );
    expect(manifestErrorsText(text, en)).toBe(text);
    const lines = manifestErrorsText(text, zh).split('\n');
    expect(lines[0]).toBe(`文件：${zh('box.manifestMsg.noRows')}`);
    expect(lines[1]).toMatch(/^第 3 行，Specimen ID：/);
    expect(lines[1]).toContain('T-1');
    expect(lines[2]).toMatch(/^第 5 行，Accession #：/);
    expect(lines[2]).toMatch(han);
    expect(lines[2]).not.toContain('is required');
    expect(lines[3]).toBe('第 6 行：Something only the server knows.');
    expect(lines[4]).toContain('6');
    expect(lines[4]).toMatch(han);
    expect(manifestErrorsText('not a line of ours', zh)).toBe('not a line of ours');
  });
});
