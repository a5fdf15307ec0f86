import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fixtureFiles, fixturesDir, FIXTURE_FILES } from '../paths';
import { ImportFormatError } from './common';
import {
  detectIcd10Format,
  formatIcd10Code,
  parseIcd10Line,
  parseIcd10Text,
  readIcd10,
  type Icd10Row,
} from './icd10';
import path from 'node:path';

const tsv = fixtureFiles().icd10;
const cms = path.join(fixturesDir(), FIXTURE_FILES.icd10Cms);

async function collect(it: AsyncIterable<Icd10Row>) {
  const rows: Icd10Row[] = [];
  for await (const r of it) rows.push(r);
  return rows;
}

describe('ICD-10-CM parser', () => {
  it('formats codes with a dot after the 3rd character', () => {
    expect(formatIcd10Code('C50911')).toBe('C50.911');
    expect(formatIcd10Code('C189')).toBe('C18.9');
    expect(formatIcd10Code('C61')).toBe('C61');
    expect(formatIcd10Code('Z08')).toBe('Z08');
    expect(formatIcd10Code('c50.911')).toBe('C50.911');
  });

  it('detects the TSV and the raw CMS layouts from the first line', () => {
    expect(detectIcd10Format('code\tformattedCode\tdescription')).toBe('tsv');
    expect(detectIcd10Format('\uFEFFcode\tformattedCode\tdescription\r')).toBe('tsv');
    expect(detectIcd10Format('A000    Cholera due to Vibrio cholerae 01, biovar cholerae')).toBe('cms');
    expect(() => detectIcd10Format('<html>')).toThrow(ImportFormatError);
  });

  it('given the TSV fixture, when streamed, then every row has code, formattedCode and description', async () => {
    const rows = await collect(readIcd10(tsv));
    expect(rows).toHaveLength(42);
    const byCode = new Map(rows.map((r) => [r.formattedCode, r]));
    for (const c of ['C50.911', 'C18.9', 'C34.90', 'C43.9', 'C61', 'Z85.3', 'Z08'])
      expect(byCode.has(c)).toBe(true);
    expect(byCode.get('C50.911')).toEqual({
      code: 'C50911',
      formattedCode: 'C50.911',
      description: 'Malignant neoplasm of unspecified site of right female breast',
    });
    expect(byCode.get('C61')?.code).toBe('C61');
  });

  it('given the raw CMS codes layout, when streamed, then the dotted code is derived', async () => {
    const rows = await collect(readIcd10(cms));
    expect(rows.map((r) => r.formattedCode)).toEqual([
      'C18.9',
      'C34.90',
      'C43.9',
      'C50.911',
      'C61',
      'Z08',
      'Z85.3',
    ]);
    expect(rows[3]).toEqual({
      code: 'C50911',
      formattedCode: 'C50.911',
      description: 'Malignant neoplasm of unspecified site of right female breast',
    });
  });

  it('the two layouts of the same codes agree', async () => {
    const fromCms = await collect(readIcd10(cms));
    const fromTsv = new Map((await collect(readIcd10(tsv))).map((r) => [r.code, r]));
    for (const r of fromCms) expect(fromTsv.get(r.code)).toEqual(r);
  });

  it('reads a stream with CRLF line endings and a byte-order mark', async () => {
    const text = '\uFEFFcode\tformattedCode\tdescription\r\nC61\tC61\tMalignant neoplasm of prostate\r\n\r\n';
    const rows = await collect(readIcd10(Readable.from([text])));
    expect(rows).toEqual([
      { code: 'C61', formattedCode: 'C61', description: 'Malignant neoplasm of prostate' },
    ]);
  });

  it('rejects bad rows naming the line', () => {
    expect(() => parseIcd10Line('C50911\tC50.91\tx', 'tsv', 7)).toThrow(
      /line 7: formattedCode C50.91 does not match/,
    );
    expect(() => parseIcd10Line('C50911\tC50.911', 'tsv', 3)).toThrow(
      /line 3: expected 3 tab-separated columns/,
    );
    expect(() => parseIcd10Line('c5-9\tC5-.9\tx', 'tsv', 2)).toThrow(ImportFormatError);
    expect(() => parseIcd10Line('C61\tC61\t ', 'tsv', 4)).toThrow(/empty description/);
    expect(() => parseIcd10Line('C61', 'cms', 5)).toThrow(/line 5/);
    expect(parseIcd10Line('code\tformattedCode\tdescription', 'tsv')).toBeNull();
    expect(parseIcd10Line('   ', 'cms')).toBeNull();
  });

  it('rejects a duplicated code', async () => {
    const text = 'C61     Malignant neoplasm of prostate\nC61     Again\n';
    await expect(collect(readIcd10(Readable.from([text])))).rejects.toThrow(/line 2: duplicate code C61/);
  });

  it('parses a whole text', () => {
    const rows = parseIcd10Text(readFileSync(tsv, 'utf8'));
    expect(rows).toHaveLength(42);
    expect(parseIcd10Text('')).toEqual([]);
  });
});
