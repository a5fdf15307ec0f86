import { describe, expect, it } from 'vitest';
import { checkBillingEntry, isDulPatientNumber, patientListActions, patientNumberProblem } from './index';

describe('Update Patient # (spec 2 section 5)', () => {
  it('given a UUID of versions 1-5 with the RFC variant, then valid; otherwise required / invalid / same', () => {
    expect(patientNumberProblem('0f8fad5b-d9cb-469f-a165-70867728950e')).toBeNull();
    expect(patientNumberProblem('0F8FAD5B-D9CB-169F-8165-70867728950E')).toBeNull();
    expect(patientNumberProblem('')).toBe('required');
    expect(patientNumberProblem('   ')).toBe('required');
    expect(patientNumberProblem('PAT-000101')).toBe('invalid');
    // version 6 and variant c are not allowed
    expect(patientNumberProblem('0f8fad5b-d9cb-669f-a165-70867728950e')).toBe('invalid');
    expect(patientNumberProblem('0f8fad5b-d9cb-469f-c165-70867728950e')).toBe('invalid');
    const n = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(patientNumberProblem(n.toUpperCase(), n)).toBe('same');
  });
  it('DUL numbers', () => {
    expect(isDulPatientNumber('PAT-DUL-1')).toBe(true);
    expect(isDulPatientNumber('PAT-000101')).toBe(false);
    expect(isDulPatientNumber(null)).toBe(false);
  });
});

describe('patients Actions menu (spec 2 section 6)', () => {
  const admin = ['VIEW_PATIENT_ACTIONS', 'CAN_UPDATE_PATIENTID', 'CAN_MERGE_PATIENTS'];
  const ok = { userId: 'PAT-1', canEdit: true };
  it('given no VIEW_PATIENT_ACTIONS, then no menu', () => {
    expect(patientListActions([ok], ['CAN_UPDATE_PATIENTID'])).toEqual({
      menu: false,
      edit: false,
      updateNumber: false,
      merge: false,
    });
  });
  it('given exactly one editable patient, then Edit and Update Patient #; two: only Merge', () => {
    expect(patientListActions([ok], admin)).toEqual({
      menu: true,
      edit: true,
      updateNumber: true,
      merge: true,
    });
    expect(patientListActions([ok, ok], admin)).toMatchObject({
      edit: false,
      updateNumber: false,
      merge: true,
    });
    expect(patientListActions([], admin)).toMatchObject({ edit: false, merge: false });
  });
  it('given a patient without canEdit or with a DUL number, then not merged; Update # needs its permission', () => {
    expect(patientListActions([ok, { ...ok, canEdit: false }], admin).merge).toBe(false);
    expect(patientListActions([ok, { userId: 'X-DUL', canEdit: true }], admin).merge).toBe(false);
    expect(patientListActions([ok], ['VIEW_PATIENT_ACTIONS']).updateNumber).toBe(false);
  });
});

describe('billing entry (spec 2 section 5 "Billing form")', () => {
  const today = new Date('2025-06-01T12:00:00Z');
  it('given INSURANCE without fields, then each required field says "{label} is required"', () => {
    const r = checkBillingEntry({ billingType: 'INSURANCE' }, today);
    expect(r).toEqual({
      errors: {
        insuranceProvider: 'Insurance Provider is required',
        payorId: 'Payor Id is required',
        insuredName: 'Insured Name is required',
        insuredDob: 'Insured DOB is required',
        policyNumber: 'Policy Number is required',
      },
    });
  });
  it('given dates out of bounds or malformed, then the spec messages', () => {
    const base = {
      billingType: 'INSURANCE',
      insuranceProvider: 'Aetna',
      payorId: '60054',
      insuredName: 'A B',
      policyNumber: 'p-1',
    };
    const err = (insuredDob: string) => (checkBillingEntry({ ...base, insuredDob }, today) as any).errors;
    expect(err('13/40/2000')).toEqual({ insuredDob: 'Enter a valid date (MM/DD/YYYY)' });
    expect(err('12/31/1899')).toEqual({ insuredDob: 'Date must be on/after 01/01/1900' });
    expect(err('06/02/2025')).toEqual({ insuredDob: 'Date must be on/before 06/01/2025' });
    const ok = checkBillingEntry({ ...base, insuredDob: '06/01/2025', groupNumber: 'g 7' }, today);
    expect(ok).toMatchObject({
      value: {
        insuredDob: '2025-06-01',
        relationshipToPatient: 'SELF',
        canonicalPolicyNumber: 'P1',
        canonicalGroupNumber: 'G7',
      },
    });
  });
  it('given SELF, then no fields are needed and insurance fields are cleared', () => {
    expect(checkBillingEntry({ billingType: 'SELF', insuredName: 'x' }, today)).toMatchObject({
      value: { billingType: 'SELF', insuredName: null },
    });
    expect(checkBillingEntry({}, today)).toEqual({ errors: { billingType: 'Payment Type is required' } });
  });
});
