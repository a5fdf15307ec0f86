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
  progressView,
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

  it("says where a manifest's job is, with a percent only while samples are being added", () => {
    const p = (state: 'QUEUED' | 'PROCESSING' | 'RETRYING', phase: any, done = 0, total = 0) =>
      progressView({ state, phase, done, total });
    expect(p('QUEUED', null)).toEqual({ key: 'box.progress.queued', percent: null });
    expect(p('RETRYING', 'APPLYING', 10, 20)).toEqual({ key: 'box.progress.retrying', percent: null });
    expect(p('PROCESSING', 'READING')).toEqual({ key: 'box.progress.reading', percent: null });
    expect(p('PROCESSING', 'PARSING')).toEqual({ key: 'box.progress.reading', percent: null });
    expect(p('PROCESSING', 'CHECKING', 0, 2000)).toEqual({
      key: 'box.progress.checking',
      values: { rows: (2000).toLocaleString() },
      percent: null,
    });
    expect(p('PROCESSING', 'APPLYING', 1000, 3000)).toEqual({
      key: 'box.progress.applying',
      values: { done: (1000).toLocaleString(), total: (3000).toLocaleString() },
      percent: 33,
    });
    expect(p('PROCESSING', 'APPLYING', 0, 0)).toEqual({ key: 'box.progress.saving', percent: null });
    expect(p('PROCESSING', null)).toEqual({ key: 'box.progress.processing', percent: null });
  });
});
