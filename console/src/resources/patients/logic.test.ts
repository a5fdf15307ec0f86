import { describe, expect, it } from 'vitest';
import { formatPhone } from '../../components/format';
import {
  addressText,
  billingBody,
  billingDraft,
  billingDraftErrors,
  billingDraftFields,
  hasReport,
  patientsBaseFilter,
  payorTyped,
  reportOf,
  testHistoryFilter,
} from './logic';

describe('patients list', () => {
  it('phone as (xxx) xxx-xxxx', () => {
    expect(formatPhone('2065550123')).toBe('(206) 555-0123');
    expect(formatPhone('+1 206 555 0123')).toBe('(206) 555-0123');
    expect(formatPhone(null)).toBe('');
  });
  it('the Created range as between(start, end); nothing when no date is chosen', () => {
    expect(patientsBaseFilter({ start: null, end: null })).toEqual({});
    expect(patientsBaseFilter({ start: 10, end: 20 })).toEqual({ createdOn: 'between(10,20)' });
    expect(patientsBaseFilter({ start: 10, end: null }).createdOn).toMatch(/^between\(10,\d+\)$/);
  });
  it('address text', () => {
    expect(addressText({ street: '1 Main St', city: 'Seattle', state: 'WA', postalCode: '98101' })).toBe(
      '1 Main St, Seattle, WA 98101',
    );
    expect(addressText({ city: 'Seattle' })).toBe('Seattle');
    expect(addressText(null)).toBe('');
  });
});

describe('patient test history', () => {
  it('asks for the SUBMITTED forms of the patient', () => {
    expect(testHistoryFilter('p1')).toEqual({ patientId: 'p1', status: 'SUBMITTED' });
  });
  it('the newest report of a test; a reported status shows View even before the report list has it', () => {
    const reports = [
      { id: 'r1', testOrderId: 't1', createdOn: '2025-01-01T00:00:00Z' },
      { id: 'r2', testOrderId: 't1', createdOn: '2025-02-01T00:00:00Z' },
      { id: 'r3', testOrderId: 't2', createdOn: '2025-03-01T00:00:00Z' },
    ];
    expect(reportOf('t1', reports)?.id).toBe('r2');
    expect(reportOf('t9', reports)).toBeNull();
    expect(hasReport('IN_PROGRESS', null)).toBe(false);
    expect(hasReport('REPORT_COMPLETE', null)).toBe(true);
  });
});

describe('Add or Edit Billing Information', () => {
  const today = new Date('2025-06-01T12:00:00Z');
  it('a new entry defaults to INSURANCE and self; the insurance fields show, dates typed MM/DD/YYYY', () => {
    const d = billingDraft();
    expect(d).toMatchObject({ billingType: 'INSURANCE', relationshipToPatient: 'SELF', insuredDob: '' });
    expect(billingDraftFields(d)).toContain('payorId');
    expect(billingDraftFields(d)).not.toContain('patientStatus');
    expect(billingDraftFields({ ...d, billingType: 'FACILITY' })).toEqual([
      'billingType',
      'preference',
      'facilityTypeName',
    ]);
    expect(billingDraft({ billingType: 'INSURANCE', insuredDob: '1970-01-02' }).insuredDob).toBe(
      '01/02/1970',
    );
  });
  it('picking a payor fills the payor id; free text clears it', () => {
    const d = billingDraft();
    const picked = payorTyped(d, 'Aet', { name: 'Aetna', payorId: '60054' });
    expect(picked).toMatchObject({ insuranceProvider: 'Aetna', payorId: '60054' });
    expect(payorTyped(picked, 'Aetna X')).toMatchObject({ insuranceProvider: 'Aetna X', payorId: '' });
  });
  it('live errors from the domain rule; the body sends empty fields as null', () => {
    const d = {
      ...billingDraft(),
      insuranceProvider: 'Aetna',
      payorId: '60054',
      insuredName: 'A',
      policyNumber: '1',
    };
    expect(billingDraftErrors({ ...d, insuredDob: '02/30/1990' }, today)).toEqual({
      insuredDob: 'Enter a valid date (MM/DD/YYYY)',
    });
    expect(billingDraftErrors({ ...d, insuredDob: '02/28/1990' }, today)).toEqual({});
    expect(billingBody({ ...d, insuredDob: '02/28/1990' })).toMatchObject({
      groupNumber: null,
      payorId: '60054',
    });
  });
});
