import { describe, expect, it } from 'vitest';
import type { PatientDoc } from './models';
import { mergeConflicts, sourceIdsOf } from './patient-merges';

const p = (id: string, over: Partial<PatientDoc> = {}) =>
  ({
    _id: id,
    userId: `PAT-${id}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1961-02-03',
    birthSex: 'FEMALE',
    mrn: 'MRN-1',
    ...over,
  }) as PatientDoc;

describe('merge preview conflicts', () => {
  it('lists each differing field once, with the target and every source value', () => {
    const c = mergeConflicts(p('t'), [p('a', { dateOfBirth: '1961-03-02', mrn: null }), p('b')]);
    expect(c.map((x) => x.field)).toEqual(['dateOfBirth', 'mrn']);
    expect(c[0]).toEqual({
      field: 'dateOfBirth',
      label: 'Date of Birth',
      target: '1961-02-03',
      sources: [
        { id: 'a', value: '1961-03-02' },
        { id: 'b', value: '1961-02-03' },
      ],
    });
    expect(c[1].sources[0]).toEqual({ id: 'a', value: null });
  });

  it('names differ only beyond case and blanks; sex is reported as sex', () => {
    expect(mergeConflicts(p('t'), [p('a', { firstName: ' ada ', lastName: 'LOVELACE' })])).toEqual([]);
    expect(mergeConflicts(p('t'), [p('a', { birthSex: 'MALE' })])[0]).toMatchObject({
      field: 'sex',
      label: 'Birth Sex',
      target: 'FEMALE',
    });
  });
});

describe('sourceId query', () => {
  it('takes repeated, single and comma-separated ids, trimmed, blanks dropped', () => {
    expect(sourceIdsOf(undefined)).toEqual([]);
    expect(sourceIdsOf('a')).toEqual(['a']);
    expect(sourceIdsOf(['a', 'b,c', ' ', ''])).toEqual(['a', 'b', 'c']);
  });
});
