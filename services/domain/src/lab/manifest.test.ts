import { describe, expect, it } from 'vitest';
import {
  MANIFEST_MSG,
  expectedSampleKinds,
  manifestErrorText,
  neutraliseCell,
  parseManifestDate,
  readManifestHeader,
  readManifestRow,
} from './manifest';

describe('manifest header', () => {
  it('recognises columns by label or alias, ignoring case, spaces and punctuation; unknown columns ignored', () => {
    const h = readManifestHeader(['trf', ' Sample type ', 'Tube ID', 'notes', 'SGI', 'collection_date']);
    expect(h.errors).toEqual([]);
    expect(h.index).toMatchObject({
      testRequisitionId: 0,
      type: 1,
      specimenId: 2,
      sampleGroupId: 4,
      collectedOn: 5,
    });
  });
  it('names a missing column, a reference column, a duplicate and the wrong delimiter', () => {
    expect(readManifestHeader(['TRF #', 'Sample Type']).errors).toEqual([
      { row: 1, column: null, message: MANIFEST_MSG.missingColumn('Specimen ID') },
    ]);
    expect(readManifestHeader(['Sample Type', 'Specimen ID']).errors[0].message).toBe(
      MANIFEST_MSG.missingReference,
    );
    expect(readManifestHeader(['TRF #', 'TRF', 'Sample Type', 'Specimen ID']).errors[0].message).toBe(
      MANIFEST_MSG.duplicateColumn('TRF #'),
    );
    expect(readManifestHeader(['TRF #;Sample Type;Specimen ID']).errors[0].message).toMatch(
      /separated by ";"/,
    );
    expect(readManifestHeader(['', '']).errors[0].message).toBe(MANIFEST_MSG.noHeader);
  });
});

describe('manifest row', () => {
  const h = readManifestHeader([
    'TRF #',
    'Sample Type',
    'Specimen ID',
    'Status',
    'Specimen Type',
    'Collection Date',
    'Do Not Exhaust',
  ]);
  it('reads values: upper-cases kinds and statuses, normalises dates, keeps blanks absent', () => {
    const r = readManifestRow(h, [' TRF-1 ', 'tumor', 'T-1', 'on hold', 'ffpe block', '3/4/2026', 'y'], 2);
    expect(r).toMatchObject({
      row: 2,
      testRequisitionId: 'TRF-1',
      type: 'TUMOR',
      specimenId: 'T-1',
      fields: {
        status: 'ON_HOLD',
        specimenType: 'FFPE_BLOCK',
        collectedOn: '2026-03-04',
        doNotExhaust: true,
      },
      errors: [],
    });
    expect(readManifestRow(h, ['TRF-1', 'NORMAL', 'N-1', '', '', '', ''], 3).fields).toEqual({});
  });
  it('reports each bad cell with its row and column', () => {
    const r = readManifestRow(h, ['', 'BONE', '', 'DONE', '', '2026-02-30', 'maybe'], 7);
    expect(r.errors).toEqual([
      { row: 7, column: 'TRF #', message: MANIFEST_MSG.referenceRequired },
      { row: 7, column: 'Sample Type', message: MANIFEST_MSG.invalidType('BONE') },
      { row: 7, column: 'Specimen ID', message: MANIFEST_MSG.required('Specimen ID') },
      { row: 7, column: 'Status', message: MANIFEST_MSG.invalidStatus('DONE') },
      { row: 7, column: 'Collection Date', message: MANIFEST_MSG.invalidDate('2026-02-30') },
      { row: 7, column: 'Do Not Exhaust', message: MANIFEST_MSG.invalidBoolean('maybe') },
    ]);
  });
});

describe('manifest helpers', () => {
  it('parses ISO and US dates, refuses the rest', () => {
    expect(parseManifestDate('2026-01-31')).toBe('2026-01-31');
    expect(parseManifestDate('01/31/2026')).toBe('2026-01-31');
    expect(parseManifestDate('2026-01-31T00:00:00.000Z')).toBe('2026-01-31');
    for (const bad of ['31/01/2026', '1/5/26', '2026-13-01', 'yesterday'])
      expect(parseManifestDate(bad)).toBeNull();
  });
  it('neutralises formula-looking values', () => {
    expect(['=1+1', '+1', '-2', '@SUM(A1)', '\tx', 'ok', '1-2'].map(neutraliseCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      'ok',
      '1-2',
    ]);
  });
  it('expects tumor and normal for an initial order, plasma for a subsequent one', () => {
    expect(expectedSampleKinds({ testOrders: [{ orderType: 'INITIAL_ORDER' }] })).toEqual([
      'TUMOR',
      'NORMAL',
    ]);
    expect(expectedSampleKinds({ testOrders: [{ orderType: 'SUBSEQUENT_ORDER' }] })).toEqual(['PLASMA']);
  });
  it('writes the error text one line per problem, with the rest counted', () => {
    expect(
      manifestErrorText(
        [
          { row: 0, column: null, message: 'Bad file.' },
          { row: 3, column: 'Status', message: 'No.' },
        ],
        5,
      ),
    ).toBe('File: Bad file.\nRow 3, Status: No.\n... and 3 more errors (download the error file).');
  });
});
