import { describe, expect, it } from 'vitest';
import { editBody, initialEditValues, REVIEWER_EDIT_BLOCKS } from './EditPanel';
import type { Requisition } from './requisition';

const r = {
  id: 'r1',
  status: 'SUBMITTED',
  version: 4,
  patient: { id: 'p1', firstName: 'Ada', lastName: 'Lovelace', mrn: 'MRN-1', birthSex: 'FEMALE' },
  tumorSpecimen: { diagnosis: 'LUNG', specimenId: 'S-1', icd10Codes: 'C34.90', collectionDate: '2026-10-01' },
  normalSpecimen: {
    specimenType: 'BLOOD',
    collectionMode: 'COLLECT_IN_CLINIC',
    collectionDate: '2026-11-01',
  },
} as unknown as Requisition;

describe('summary Edit', () => {
  it('starts from the stored values', () => {
    const v = initialEditValues(r);
    expect(v.patient).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', mrn: 'MRN-1', email: '' });
    expect(v.tumorSpecimen).toMatchObject({ specimenId: 'S-1', icd10Codes: 'C34.90', drugName: '' });
    expect(v.tumorSpecimen!.collectionDate).toBe('2026-10-01');
    expect(v.normalSpecimen).toEqual({ collectionDate: '2026-11-01' });
  });

  it('a changed blood collection date keeps the rest of the normal specimen', () => {
    const v = initialEditValues(r);
    v.normalSpecimen!.collectionDate = '2026-11-05';
    expect(editBody(r, v).normalSpecimen).toEqual({
      specimenType: 'BLOOD',
      collectionMode: 'COLLECT_IN_CLINIC',
      collectionDate: '2026-11-05',
    });
  });

  it('sends each block merged over the stored one, empty text as null, with the version', () => {
    const v = initialEditValues(r);
    v.patient!.mrn = ' MRN-2 ';
    v.patient!.firstName = '';
    const body = editBody(r, v);
    expect(body.version).toBe(4);
    expect(body.patient).toMatchObject({ id: 'p1', birthSex: 'FEMALE', mrn: 'MRN-2', firstName: null });
    expect(body.tumorSpecimen).toMatchObject({ diagnosis: 'LUNG', specimenId: 'S-1' });
  });

  it("a clinical reviewer's edit holds the specimens only, and the body sends nothing else", () => {
    const v = initialEditValues(r, REVIEWER_EDIT_BLOCKS);
    expect(Object.keys(v)).toEqual(['tumorSpecimen', 'normalSpecimen']);
    v.tumorSpecimen!.specimenId = 'S-2';
    const body = editBody(r, v);
    expect(body).not.toHaveProperty('patient');
    expect(body.tumorSpecimen).toMatchObject({ diagnosis: 'LUNG', specimenId: 'S-2' });
  });
});
