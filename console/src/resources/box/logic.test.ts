import { describe, expect, it } from 'vitest';
import { isBoxFileName } from '@onco/domain';
import { boxBaseFilter, boxEmptyKey, canDelete, hasErrors, needsPolling } from './logic';

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
});
