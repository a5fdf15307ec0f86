import { describe, expect, it } from 'vitest';
import { canonicalNumber, checkBilling, checkDate, checkPatient, parseCalendarDate } from './rules';

const today = new Date('2025-06-15T12:00:00Z');
const patient = {
  firstName: ' Ada ',
  lastName: 'Lovelace',
  dateOfBirth: '12/10/1955',
  birthSex: 'FEMALE',
  phone: '(206) 555-0100',
  address: { street: '1 Main St', city: 'St. Paul', state: 'MN', postalCode: '55101-1234' },
};

describe('patient rules (spec 1 section 5 "Patient", spec 2 "Patient edit form")', () => {
  it('normalizes a valid form: trimmed names, phone digits, date of birth as YYYY-MM-DD, display name', () => {
    const r = checkPatient(patient, today);
    expect('value' in r && r.value).toMatchObject({
      firstName: 'Ada',
      name: 'Ada Lovelace',
      phone: '2065550100',
      dateOfBirth: '1955-12-10',
    });
  });

  it('requires names, date of birth, birth sex, street, city, state and zip', () => {
    const r = checkPatient({ address: null }, today);
    expect('errors' in r && r.errors).toEqual({
      firstName: 'This field is required',
      lastName: 'This field is required',
      dateOfBirth: 'This field is required',
      birthSex: 'This field is required',
      'address.street': 'This field is required',
      'address.city': 'This field is required',
      'address.state': 'This field is required',
      'address.postalCode': 'This field is required',
    });
  });

  it('date of birth: not in the future, not unparsable, not more than 150 years back, not before 1900', () => {
    const dob = (d: string) => {
      const r = checkPatient({ ...patient, dateOfBirth: d }, today);
      return 'errors' in r ? r.errors.dateOfBirth : 'ok';
    };
    expect(dob('2025-06-16')).toBe('Date must be no later than 06/15/2025');
    expect(dob('2025-06-15')).toBe('ok');
    expect(dob('02/30/1980')).toBe('Invalid date');
    expect(dob('yesterday')).toBe('Invalid date');
    expect(dob('1870-01-01')).toBe('Invalid date');
    expect(checkDate('1899-12-31', { today })).toEqual({ error: 'Date must be no earlier than 01/01/1900' });
  });

  it('phone 10 digits, city letters/hyphen/dot/space, zip 5 digits optionally -up to 4, max length 10, email', () => {
    const errs = (over: Record<string, unknown>) => {
      const r = checkPatient(
        { ...patient, ...over, address: { ...patient.address, ...(over.address as object) } },
        today,
      );
      return 'errors' in r ? r.errors : {};
    };
    expect(errs({ phone: '555-0100' })).toEqual({ phone: 'Invalid Phone' });
    expect(errs({ fax: '12345678901' })).toEqual({ fax: 'Invalid Fax' });
    expect(errs({ address: { city: 'Paris 2' } })).toEqual({ 'address.city': 'Invalid City' });
    expect(errs({ address: { city: 'Winston-Salem' } })).toEqual({});
    expect(errs({ address: { postalCode: '5510' } })).toEqual({ 'address.postalCode': 'Invalid Zip Code' });
    expect(errs({ address: { postalCode: '55101-' } })).toEqual({ 'address.postalCode': 'Invalid Zip Code' });
    expect(errs({ address: { postalCode: '55101-12345' } })).toEqual({
      'address.postalCode': 'The length is 10',
    });
    expect(errs({ address: { postalCode: '55101' } })).toEqual({});
    expect(errs({ email: 'not-an-email' })).toEqual({ email: 'Invalid Email' });
    expect(errs({ birthSex: 'X' })).toEqual({ birthSex: 'Invalid Birth Sex' });
  });

  it('parses YYYY-MM-DD and MM/DD/YYYY only', () => {
    expect(parseCalendarDate('2024-02-29')).toBe('2024-02-29');
    expect(parseCalendarDate('02/29/2023')).toBeNull();
    expect(parseCalendarDate('2024-2-9')).toBeNull();
  });
});

describe('billing entry rules (spec 1 section 5 "Billing")', () => {
  const insurance = {
    billingType: 'INSURANCE',
    insuranceProvider: 'Blue Cross',
    payorId: '00430',
    insuredName: 'Ada Lovelace',
    insuredDob: '12/10/1955',
    policyNumber: 'xq-123 456',
    groupNumber: 'g.77',
  };

  it('INSURANCE: the insurance fields are required with "{label} is required"; relationship defaults to SELF', () => {
    const r = checkBilling({ billingType: 'INSURANCE' }, today);
    expect('errors' in r && r.errors).toEqual({
      insuranceProvider: 'Insurance Provider is required',
      payorId: 'Payor Id is required',
      insuredName: 'Insured Name is required',
      insuredDob: 'Insured DOB is required',
      policyNumber: 'Policy Number is required',
    });
    const ok = checkBilling(insurance, today);
    expect('value' in ok && ok.value).toMatchObject({
      relationshipToPatient: 'SELF',
      insuredDob: '1955-12-10',
      canonicalPolicyNumber: 'XQ123456',
      canonicalGroupNumber: 'G77',
    });
  });

  it('billing type is required ("Payment Type is required") and must be known', () => {
    expect(checkBilling({}, today)).toEqual({ errors: { billingType: 'Payment Type is required' } });
    expect(checkBilling({ billingType: 'CASH' }, today)).toEqual({
      errors: { billingType: 'Invalid Payment Type' },
    });
  });

  it('dates: MM/DD/YYYY between 01/01/1900 and today, with the billing messages', () => {
    const dob = (d: string) => {
      const r = checkBilling({ ...insurance, insuredDob: d }, today);
      return 'errors' in r ? r.errors.insuredDob : 'ok';
    };
    expect(dob('13/01/2000')).toBe('Enter a valid date (MM/DD/YYYY)');
    expect(dob('12/31/1899')).toBe('Date must be on/after 01/01/1900');
    expect(dob('06/16/2025')).toBe('Date must be on/before 06/15/2025');
    expect(dob('06/15/2025')).toBe('ok');
  });

  it('MEDICARE/MEDICAID: discharge date required only when INPATIENT_DISCHARGED, otherwise cleared', () => {
    const medicare = { ...insurance, billingType: 'MEDICARE', dischargeDate: '01/02/2025' };
    const r1 = checkBilling(
      { ...medicare, patientStatus: 'INPATIENT_DISCHARGED', dischargeDate: null },
      today,
    );
    expect('errors' in r1 && r1.errors).toEqual({ dischargeDate: 'Discharge Date is required' });
    const r2 = checkBilling({ ...medicare, patientStatus: 'INPATIENT_DISCHARGED' }, today);
    expect('value' in r2 && r2.value.dischargeDate).toBe('2025-01-02');
    const r3 = checkBilling({ ...medicare, patientStatus: 'OUTPATIENT' }, today);
    expect('value' in r3 && r3.value.dischargeDate).toBeNull();
    const r4 = checkBilling(
      {
        ...medicare,
        billingType: 'MEDICAID',
        patientStatus: 'INPATIENT_DISCHARGED',
        dischargeDate: '07/01/2025',
      },
      today,
    );
    expect('errors' in r4 && r4.errors).toEqual({ dischargeDate: 'Date must be on/before 06/15/2025' });
  });

  it('FACILITY needs the facility type; SELF, FACILITY and OTHER clear the insurance fields', () => {
    expect(checkBilling({ billingType: 'FACILITY' }, today)).toEqual({
      errors: { facilityTypeName: 'Facility Type is required' },
    });
    const self = checkBilling({ ...insurance, billingType: 'SELF', otherTypeName: 'x' }, today);
    expect('value' in self && self.value).toMatchObject({
      insuranceProvider: null,
      policyNumber: null,
      canonicalPolicyNumber: null,
      otherTypeName: null,
    });
    const other = checkBilling({ billingType: 'OTHER', otherTypeName: 'Grant' }, today);
    expect('value' in other && other.value.otherTypeName).toBe('Grant');
  });

  it('canonical numbers keep letters and digits, upper case', () => {
    expect(canonicalNumber(' abc-12 3.4 ')).toBe('ABC1234');
    expect(canonicalNumber('--')).toBeNull();
    expect(canonicalNumber(null)).toBeNull();
  });
});
