import { describe, expect, it } from 'vitest';
import { isBoxFileName } from '@onco/domain';
import {
  boxBaseFilter,
  boxEmptyKey,
  canCheckManifest,
  canDelete,
  checkOutcome,
  fileNameOf,
  hasErrorFile,
  hasErrors,
  hasSummary,
  missingKinds,
  needsPolling,
  pickBoxAccount,
} from './logic';

describe('attachment box rules', () => {
  it('filters the Created range as between(start, end)', () => {
    expect(boxBaseFilter({ start: null, end: null })).toEqual({});
    expect(boxBaseFilter({ start: 10, end: 20 })).toEqual({ createdOn: 'between(10,20)' });
    expect(boxBaseFilter({ start: 10, end: null })).toEqual({ createdOn: 'between(10,8640000000000000)' });
  });

  it('deletes only while UPLOADED and links errors only for ERROR', () => {
    expect(['UPLOADED', 'PROCESSED', 'ERROR'].map(canDelete)).toEqual([true, false, false]);
    expect(['UPLOADED', 'PROCESSED', 'ERROR'].map(hasErrors)).toEqual([false, false, true]);
  });

  it('takes the four extensions only', () => {
    expect(['a.xlsx', 'B.XLS', 'c.csv', 'd.pdf'].every(isBoxFileName)).toBe(true);
    expect(['e.docx', 'f.xlsx.exe', 'csv'].some(isBoxFileName)).toBe(false);
  });

  it('says which empty text and when to refresh by itself', () => {
    expect(boxEmptyKey(false)).toBe('box.emptyAll');
    expect(boxEmptyKey(true)).toBe('box.emptyFiltered');
    expect(needsPolling([{ status: 'UPLOADED', type: 'SAMPLE_MANIFEST' }])).toBe(true);
    expect(
      needsPolling([
        { status: 'UPLOADED', type: 'NOTE' },
        { status: 'ERROR', type: 'SAMPLE_MANIFEST' },
      ]),
    ).toBe(false);
  });

  it("takes the configured account, else the user's first, else none", () => {
    const lab = { id: 'a-lab', name: 'Lab' };
    const mine = { id: 'a-1', name: 'Alpha' };
    expect(pickBoxAccount([lab], [mine])).toBe(lab);
    expect(pickBoxAccount([], [mine])).toBe(mine);
    expect(pickBoxAccount([], [])).toBeNull();
  });

  it("saves a download under the server's file name", () => {
    expect(fileNameOf(`attachment; filename="a_b.csv"; filename*=UTF-8''a%C3%A9%20b.csv`, 'x')).toBe(
      'aé b.csv',
    );
    expect(fileNameOf('attachment; filename="bad - errors.xlsx"', 'x')).toBe('bad - errors.xlsx');
    expect(fileNameOf('attachment; filename=plain.csv', 'x')).toBe('plain.csv');
    expect(fileNameOf(`attachment; filename*=UTF-8''..%2F..%2Fetc%2Fpasswd`, 'x')).toBe('.._.._etc_passwd');
    expect(fileNameOf(`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.csv"`, 'x')).toBe('ok.csv');
    expect(fileNameOf(null, 'fallback.xlsx')).toBe('fallback.xlsx');
    expect(fileNameOf('attachment', 'fallback.xlsx')).toBe('fallback.xlsx');
  });

  it('offers the summary, the error file and the dry run only for sample manifests', () => {
    expect(hasSummary({ type: 'SAMPLE_MANIFEST', status: 'PROCESSED' })).toBe(true);
    expect(hasSummary({ type: 'NOTE', status: 'PROCESSED' })).toBe(false);
    expect(hasSummary({ type: 'SAMPLE_MANIFEST', status: 'ERROR' })).toBe(false);
    expect(hasErrorFile({ type: 'SAMPLE_MANIFEST', status: 'ERROR' })).toBe(true);
    expect(hasErrorFile({ type: 'OTHER', status: 'ERROR' })).toBe(false);
    const file = { name: 'm.csv' };
    expect(canCheckManifest('SAMPLE_MANIFEST', file, ['VIEW_SAMPLE_ACTIONS'])).toBe(true);
    expect(canCheckManifest('SAMPLE_MANIFEST', null, ['VIEW_SAMPLE_ACTIONS'])).toBe(false);
    expect(canCheckManifest('NOTE', file, ['VIEW_SAMPLE_ACTIONS'])).toBe(false);
    expect(canCheckManifest('SAMPLE_MANIFEST', file, ['VIEW_BOX_PAGE'])).toBe(false);
  });

  it('says what a dry run found and which samples are still missing', () => {
    expect(checkOutcome({ rows: 3, errors: [] })).toBe('ok');
    expect(checkOutcome({ rows: 0, errors: [] })).toBe('empty');
    expect(checkOutcome({ rows: 3, errors: [{}] })).toBe('errors');
    expect(checkOutcome({ rows: 3, errors: [], errorCount: 2 })).toBe('errors');
    expect(missingKinds({ expected: ['TUMOR', 'NORMAL'], found: ['TUMOR'] })).toEqual(['NORMAL']);
    expect(missingKinds({ expected: ['PLASMA'], found: ['PLASMA'] })).toEqual([]);
  });
});
