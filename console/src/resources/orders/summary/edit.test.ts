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
  it('starts from the stored values: the patient as text, the specimens whole', () => {
    const v = initialEditValues(r);
    expect(v.patient).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', mrn: 'MRN-1', email: '' });
    expect(v.tumorSpecimen).toEqual(r.tumorSpecimen);
    expect(v.tumorSpecimen).not.toBe(r.tumorSpecimen);
    expect(v.normalSpecimen).toEqual(r.normalSpecimen);
  });

  it('a changed blood collection date keeps the rest of the normal specimen', () => {
    const v = initialEditValues(r);
    v.normalSpecimen = { ...v.normalSpecimen, collectionDate: '2026-11-05' };
    expect(editBody(r, v).normalSpecimen).toEqual({
      specimenType: 'BLOOD',
      collectionMode: 'COLLECT_IN_CLINIC',
      collectionDate: '2026-11-05',
    });
  });

  it('sends the patient merged over the stored one, empty text as null, the specimens as edited, the version', () => {
    const v = initialEditValues(r);
    v.patient!.mrn = ' MRN-2 ';
    v.patient!.firstName = '';
    v.tumorSpecimen = {
      ...v.tumorSpecimen,
      priorTherapies: ['Carboplatin'],
      planOrReceivingImmunotherapy: true,
    };
    const body = editBody(r, v);
    expect(body.version).toBe(4);
    expect(body.patient).toMatchObject({ id: 'p1', birthSex: 'FEMALE', mrn: 'MRN-2', firstName: null });
    expect(body.tumorSpecimen).toEqual({
      diagnosis: 'LUNG',
      specimenId: 'S-1',
      icd10Codes: 'C34.90',
      collectionDate: '2026-10-01',
      priorTherapies: ['Carboplatin'],
      planOrReceivingImmunotherapy: true,
    });
  });

  it("a clinical reviewer's edit holds the specimens only, and the body sends nothing else", () => {
    const v = initialEditValues(r, REVIEWER_EDIT_BLOCKS);
    expect(Object.keys(v)).toEqual(['tumorSpecimen', 'normalSpecimen']);
    v.tumorSpecimen = { ...v.tumorSpecimen, specimenId: 'S-2' };
    const body = editBody(r, v);
    expect(body).not.toHaveProperty('patient');
    expect(body.tumorSpecimen).toMatchObject({ diagnosis: 'LUNG', specimenId: 'S-2' });
  });
});
