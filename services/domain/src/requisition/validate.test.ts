import { describe, expect, it } from 'vitest';
import { completeForm, ctx } from './test-fixtures';
import {
  BLOCK_NAMES,
  hasProblems,
  primaryBillingIndex,
  requisitionWarnings,
  medicareDataMissing,
  saveProblems,
  submitProblems,
  validateRequisition,
} from './validate';
import type { RequisitionForm } from './schema';

const REQUIRED = 'This field is required';
const COMBO = 'NeXT Dx and NeXT Personal Dx initial order require tumor and matched normal.';

/** the complete form with some blocks changed */
function given(change: (f: RequisitionForm) => void): RequisitionForm {
  const f = completeForm();
  change(f);
  return f;
}
const errorsOf = (f: RequisitionForm, ...permissions: string[]) =>
  validateRequisition(f, ctx(...permissions));

describe('validateRequisition: a complete requisition', () => {
  it('given every block filled and signed, when validated, then every block is empty and nothing blocks submit', () => {
    const errors = errorsOf(completeForm());
    expect(Object.keys(errors).sort()).toEqual([...BLOCK_NAMES].sort());
    for (const b of BLOCK_NAMES) expect(errors[b], b).toEqual({});
    expect(submitProblems(completeForm(), ctx())).toEqual({});
    expect(hasProblems(submitProblems(completeForm(), ctx()))).toBe(false);
  });
  it('given an empty draft, when validated, then every block is present and the required ones report', () => {
    const errors = errorsOf({});
    expect(Object.keys(errors).sort()).toEqual([...BLOCK_NAMES].sort());
    expect(errors.testSelection).toEqual({ orderInformation: REQUIRED });
    expect(errors.patient['patient.firstName']).toBe(REQUIRED);
    expect(errors.provider['physician.lastName']).toBe(REQUIRED);
    expect(errors.account['account.name']).toBe(REQUIRED);
    expect(errors.location['hospitalLocation.name']).toBe(REQUIRED);
    expect(errors.tumorSpecimen['tumorSpecimen.diagnosis']).toBe(REQUIRED);
    expect(errors.icd10['tumorSpecimen.icd10Codes']).toBe(REQUIRED);
    expect(errors.normalSpecimen['normalSpecimen.specimenType']).toBe(REQUIRED);
    expect(errors.billing['billings.0.billingType']).toBe('Billing Type is required');
    expect(errors.signature).toEqual({ approvals: REQUIRED });
    expect(errors.pathologist).toEqual({});
    expect(errors.additionalProvider).toEqual({});
    expect(errors.attachments).toEqual({});
  });
});

describe('test selection', () => {
  it('given neither test, when validated, then at least one is required', () => {
    const f = given((f) => (f.orderInformation = { nextDx: false, nextPersonalDx: false }));
    expect(errorsOf(f).testSelection).toEqual({ orderInformation: REQUIRED });
  });
  it('given either test alone, then test selection is fine', () => {
    expect(errorsOf(given((f) => (f.orderInformation = { nextDx: true }))).testSelection).toEqual({});
    expect(errorsOf(given((f) => (f.orderInformation = { nextPersonalDx: true }))).testSelection).toEqual({});
  });
  it('given IS_TEST_SELECTION_OPTIONAL, when no test is chosen, then it is not required', () => {
    const f = given((f) => (f.orderInformation = null));
    expect(errorsOf(f, 'IS_TEST_SELECTION_OPTIONAL').testSelection).toEqual({});
  });
});

describe('patient', () => {
  const required = [
    'patient.firstName',
    'patient.lastName',
    'patient.dateOfBirth',
    'patient.address.street',
    'patient.address.city',
    'patient.address.state',
    'patient.address.postalCode',
    'patient.birthSex',
  ];
  it('given no patient, when validated, then names, date of birth, street, city, state, zip and birth sex are required', () => {
    const errors = errorsOf(given((f) => (f.patient = null))).patient;
    expect(Object.keys(errors).sort()).toEqual([...required].sort());
    for (const k of required) expect(errors[k]).toBe(REQUIRED);
  });
  it('given blank (whitespace) values, then they count as missing', () => {
    const f = given((f) => (f.patient!.firstName = '   '));
    expect(errorsOf(f).patient).toEqual({ 'patient.firstName': REQUIRED });
  });
  it('given IS_PATIENT_INFO_OPTIONAL, when the patient is empty, then nothing is required', () => {
    expect(
      errorsOf(
        given((f) => (f.patient = null)),
        'IS_PATIENT_INFO_OPTIONAL',
      ).patient,
    ).toEqual({});
  });
  it('given IS_PATIENT_INFO_OPTIONAL, when a value breaks a rule, then it is still reported', () => {
    const f = given((f) => (f.patient = { phone: '12' }));
    expect(errorsOf(f, 'IS_PATIENT_INFO_OPTIONAL').patient).toEqual({ 'patient.phone': 'Invalid Phone' });
  });
  it.each([
    ['2026-11-22', 'Date must be no later than 11/21/2026'],
    ['1899-12-31', 'Date must be no earlier than 01/01/1900'],
    ['1870-01-01', 'Invalid date'],
    ['2026-02-30', 'Invalid date'],
    ['05/04/1960', 'Invalid date'],
    ['yesterday', 'Invalid date'],
  ])('given date of birth %s, then "%s"', (dob, message) => {
    expect(errorsOf(given((f) => (f.patient!.dateOfBirth = dob))).patient).toEqual({
      'patient.dateOfBirth': message,
    });
  });
  it('given date of birth today or 1900-01-01, then it is accepted', () => {
    expect(errorsOf(given((f) => (f.patient!.dateOfBirth = '2026-11-21'))).patient).toEqual({});
    expect(errorsOf(given((f) => (f.patient!.dateOfBirth = '1900-01-01'))).patient).toEqual({});
  });
  it.each(['5551234567', '(555) 123-4567', '555-123-4567', '555.123.4567'])('accepts phone %s', (phone) => {
    expect(errorsOf(given((f) => (f.patient!.phone = phone))).patient).toEqual({});
  });
  it.each(['555123456', '55512345678', '555-ABC-4567', '+1 555 123 4567'])('rejects phone %s', (phone) => {
    expect(errorsOf(given((f) => (f.patient!.phone = phone))).patient).toEqual({
      'patient.phone': 'Invalid Phone',
    });
  });
  it('given a fax that is not 10 digits, then "Invalid Fax"', () => {
    expect(errorsOf(given((f) => (f.patient!.fax = '123'))).patient).toEqual({
      'patient.fax': 'Invalid Fax',
    });
  });
  it('given a malformed email, then "Invalid Email"', () => {
    expect(errorsOf(given((f) => (f.patient!.email = 'ada@'))).patient).toEqual({
      'patient.email': 'Invalid Email',
    });
  });
  it.each(['St. Louis', 'Winston-Salem', 'New York'])('accepts city %s', (city) => {
    expect(errorsOf(given((f) => (f.patient!.address!.city = city))).patient).toEqual({});
  });
  it.each(['Boston 2', "O'Fallon", 'Zürich'])('rejects city %s', (city) => {
    const errors = errorsOf(given((f) => (f.patient!.address!.city = city))).patient;
    expect(errors).toEqual({ 'patient.address.city': 'Invalid City' });
  });
  it.each(['12345', '12345-6', '12345-6789'])('accepts zip %s', (zip) => {
    expect(errorsOf(given((f) => (f.patient!.address!.postalCode = zip))).patient).toEqual({});
  });
  it.each(['1234', '123456', '12345-', '12345-67890', 'ABCDE'])('rejects zip %s', (zip) => {
    const errors = errorsOf(given((f) => (f.patient!.address!.postalCode = zip))).patient;
    expect(errors).toEqual({ 'patient.address.postalCode': 'Invalid Zip Code' });
  });
});

describe('provider, account and location', () => {
  it('given no provider, account or location, then names, email, account name and location fields are required', () => {
    const errors = errorsOf(
      given((f) => ((f.physician = null), (f.account = null), (f.hospitalLocation = null))),
    );
    expect(errors.provider).toEqual({
      'physician.firstName': REQUIRED,
      'physician.lastName': REQUIRED,
      'physician.email': REQUIRED,
    });
    expect(errors.account).toEqual({ 'account.name': REQUIRED });
    expect(errors.location).toEqual({
      'hospitalLocation.name': REQUIRED,
      'hospitalLocation.address.street': REQUIRED,
      'hospitalLocation.address.city': REQUIRED,
      'hospitalLocation.address.state': REQUIRED,
      'hospitalLocation.address.postalCode': REQUIRED,
    });
  });
  it('given IS_PROVIDER_INFO_OPTIONAL, then provider, account and location are not required', () => {
    const f = given((f) => ((f.physician = null), (f.account = null), (f.hospitalLocation = null)));
    const errors = errorsOf(f, 'IS_PROVIDER_INFO_OPTIONAL');
    expect([errors.provider, errors.account, errors.location]).toEqual([{}, {}, {}]);
  });
  it('given bad provider phone, fax and email, then each is invalid (also when optional)', () => {
    const f = given((f) => Object.assign(f.physician!, { phone: '12', fax: '34', email: 'x' }));
    const expected = {
      'physician.phone': 'Invalid Phone',
      'physician.fax': 'Invalid Fax',
      'physician.email': 'Invalid Email',
    };
    expect(errorsOf(f).provider).toEqual(expected);
    expect(errorsOf(f, 'IS_PROVIDER_INFO_OPTIONAL').provider).toEqual(expected);
  });
  it('given a bad location telephone, fax, city and zip, then each is invalid', () => {
    const f = given((f) =>
      Object.assign(f.hospitalLocation!.address!, { telephone: '1', fax: '2', city: 'X1', postalCode: '1' }),
    );
    expect(errorsOf(f).location).toEqual({
      'hospitalLocation.address.telephone': 'Invalid Phone',
      'hospitalLocation.address.fax': 'Invalid Fax',
      'hospitalLocation.address.city': 'Invalid City',
      'hospitalLocation.address.postalCode': 'Invalid Zip Code',
    });
  });
});

describe('pathologist and additional provider (optional blocks)', () => {
  it('given none, then nothing is required', () => {
    const errors = errorsOf(completeForm());
    expect([errors.pathologist, errors.additionalProvider]).toEqual([{}, {}]);
  });
  it('given bad contact details, then they are invalid', () => {
    const f = given((f) => {
      f.pathologist = { name: 'P', phone: '1', fax: '2', email: 'p' };
      f.pathologistLocation = { name: 'L', address: { city: 'C3', postalCode: '9', telephone: '3' } };
      f.additionalPhysician = { firstName: 'A', phone: '1', fax: '2', email: 'a' };
      f.additionalPhysicianLocation = { address: { fax: '4' } };
    });
    const errors = errorsOf(f);
    expect(errors.pathologist).toEqual({
      'pathologist.phone': 'Invalid Phone',
      'pathologist.fax': 'Invalid Fax',
      'pathologist.email': 'Invalid Email',
      'pathologistLocation.address.city': 'Invalid City',
      'pathologistLocation.address.postalCode': 'Invalid Zip Code',
      'pathologistLocation.address.telephone': 'Invalid Phone',
    });
    expect(errors.additionalProvider).toEqual({
      'additionalPhysician.phone': 'Invalid Phone',
      'additionalPhysician.fax': 'Invalid Fax',
      'additionalPhysician.email': 'Invalid Email',
      'additionalPhysicianLocation.address.fax': 'Invalid Fax',
    });
  });
});

describe('tumor specimen', () => {
  const tumor = (change: Partial<NonNullable<RequisitionForm['tumorSpecimen']>>, ...perms: string[]) =>
    errorsOf(
      given((f) => Object.assign(f.tumorSpecimen!, change)),
      ...perms,
    ).tumorSpecimen;

  it('given no diagnosis, then it is required; with IS_SPECIMEN_INFO_OPTIONAL it is not', () => {
    expect(tumor({ diagnosis: null })).toEqual({ 'tumorSpecimen.diagnosis': REQUIRED });
    expect(tumor({ diagnosis: null }, 'IS_SPECIMEN_INFO_OPTIONAL')).toEqual({});
  });
  it('given diagnosis OTHER without text, then otherDiagnosis is required, even when specimen info is optional', () => {
    expect(tumor({ diagnosis: 'OTHER' })).toEqual({ 'tumorSpecimen.otherDiagnosis': REQUIRED });
    expect(tumor({ diagnosis: 'OTHER' }, 'IS_SPECIMEN_INFO_OPTIONAL')).toEqual({
      'tumorSpecimen.otherDiagnosis': REQUIRED,
    });
    expect(tumor({ diagnosis: 'OTHER', otherDiagnosis: 'Sarcoma' })).toEqual({});
  });
  it('given stage OTHER without text, then otherStage is required; otherwise otherStage is ignored', () => {
    expect(tumor({ stage: 'OTHER' })).toEqual({ 'tumorSpecimen.otherStage': REQUIRED });
    expect(tumor({ stage: 'OTHER', otherStage: 'IIIb' })).toEqual({});
    expect(tumor({ stage: 'II', otherStage: null })).toEqual({});
  });
  it('given biopsy site OTHER without text, then otherBiopsySite is required', () => {
    expect(tumor({ specimenBiopsySite: 'OTHER' })).toEqual({ 'tumorSpecimen.otherBiopsySite': REQUIRED });
    expect(tumor({ specimenBiopsySite: 'OTHER', otherBiopsySite: 'Liver' })).toEqual({});
  });
  it('given NeXT Dx + NeXT Personal Dx initial without tumor type, then the combination message, even when optional', () => {
    expect(tumor({ specimenType: null })).toEqual({ 'tumorSpecimen.specimenType': COMBO });
    expect(tumor({ specimenType: null }, 'IS_SPECIMEN_INFO_OPTIONAL')).toEqual({
      'tumorSpecimen.specimenType': COMBO,
    });
  });
  it('given NeXT Dx alone without tumor type, then it is required (not with IS_SPECIMEN_INFO_OPTIONAL)', () => {
    const f = given((f) => ((f.orderInformation = { nextDx: true }), (f.tumorSpecimen!.specimenType = null)));
    expect(errorsOf(f).tumorSpecimen).toEqual({ 'tumorSpecimen.specimenType': REQUIRED });
    expect(errorsOf(f, 'IS_SPECIMEN_INFO_OPTIONAL').tumorSpecimen).toEqual({});
  });
  it('given a NeXT Personal Dx subsequent order alone, then no tumor specimen type is needed', () => {
    const f = given((f) => {
      f.orderInformation = { nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' };
      f.tumorSpecimen!.specimenType = null;
    });
    expect(errorsOf(f).tumorSpecimen).toEqual({});
  });
  it('given FRESH_FROZEN_TISSUE with a NeXT Personal Dx order, then "Invalid Specimen Type"; with NeXT Dx alone it is fine', () => {
    expect(tumor({ specimenType: 'FRESH_FROZEN_TISSUE' })).toEqual({
      'tumorSpecimen.specimenType': 'Invalid Specimen Type',
    });
    const f = given(
      (f) => (
        (f.orderInformation = { nextDx: true }),
        (f.tumorSpecimen!.specimenType = 'FRESH_FROZEN_TISSUE')
      ),
    );
    expect(errorsOf(f).tumorSpecimen).toEqual({});
  });
  it.each(['S-1', 'abc_DEF-09', '123'])('accepts specimen id %s', (specimenId) => {
    expect(tumor({ specimenId })).toEqual({});
  });
  it.each(['S 1', 'S/1', 'S.1', 'é'])('rejects specimen id %s with "Invalid Specimen ID"', (specimenId) => {
    expect(tumor({ specimenId })).toEqual({ 'tumorSpecimen.specimenId': 'Invalid Specimen ID' });
  });
  it.each([
    ['2026-11-21', undefined],
    ['2008-11-21', undefined],
    ['2008-11-20', 'Date must be no earlier than 11/21/2008'],
    ['2026-11-22', 'Date must be no later than 11/21/2026'],
    ['2026-13-01', 'Invalid date'],
  ])('given tumor collection date %s, then %s', (collectionDate, message) => {
    expect(tumor({ collectionDate })).toEqual(message ? { 'tumorSpecimen.collectionDate': message } : {});
  });
  it('given a future date of diagnosis, then "Date must be no later than" today', () => {
    expect(tumor({ dateOfDiagnosis: '2027-01-01' })).toEqual({
      'tumorSpecimen.dateOfDiagnosis': 'Date must be no later than 11/21/2026',
    });
  });
  it('given tumor content outside 0..100, then the minimum/maximum message', () => {
    expect(tumor({ content: -1 })).toEqual({ 'tumorSpecimen.content': 'The minimum is 0' });
    expect(tumor({ content: 101 })).toEqual({ 'tumorSpecimen.content': 'The maximum is 100' });
    expect(tumor({ content: 0 })).toEqual({});
    expect(tumor({ content: 100 })).toEqual({});
  });
});

describe('ICD-10 codes', () => {
  const codes = (n: number) => Array.from({ length: n }, (_, i) => `C50.9${i}`).join(',');
  it('given no codes, then they are required (not with IS_SPECIMEN_INFO_OPTIONAL)', () => {
    for (const empty of [null, '', ' , ']) {
      const f = given((f) => (f.tumorSpecimen!.icd10Codes = empty));
      expect(errorsOf(f).icd10).toEqual({ 'tumorSpecimen.icd10Codes': REQUIRED });
      expect(errorsOf(f, 'IS_SPECIMEN_INFO_OPTIONAL').icd10).toEqual({});
    }
  });
  it('given 6 codes, then fine; given 7, then "The maximum is 6"', () => {
    expect(errorsOf(given((f) => (f.tumorSpecimen!.icd10Codes = codes(6)))).icd10).toEqual({});
    expect(errorsOf(given((f) => (f.tumorSpecimen!.icd10Codes = codes(7)))).icd10).toEqual({
      'tumorSpecimen.icd10Codes': 'The maximum is 6',
    });
  });
});

describe('normal (blood) specimen', () => {
  const normal = (
    orderInformation: RequisitionForm['orderInformation'],
    n: RequisitionForm['normalSpecimen'],
    ...perms: string[]
  ) =>
    errorsOf(
      given((f) => ((f.orderInformation = orderInformation), (f.normalSpecimen = n))),
      ...perms,
    ).normalSpecimen;
  const single = { nextDx: true };
  const combo = { nextDx: true, nextPersonalDx: true };
  const subsequent = { nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' as const };

  it('given no type, then it is required; with IS_SPECIMEN_INFO_OPTIONAL not', () => {
    expect(normal(single, null)).toEqual({ 'normalSpecimen.specimenType': REQUIRED });
    expect(normal(single, null, 'IS_SPECIMEN_INFO_OPTIONAL')).toEqual({});
  });
  it('given the NeXT Dx + NeXT Personal Dx initial order without a normal, then the combination message, even when optional', () => {
    expect(normal(combo, null)).toEqual({ 'normalSpecimen.specimenType': COMBO });
    expect(normal(combo, null, 'IS_SPECIMEN_INFO_OPTIONAL')).toEqual({
      'normalSpecimen.specimenType': COMBO,
    });
  });
  it('given the personalized test, then only BLOOD is accepted (PLASMA too for a subsequent order)', () => {
    expect(normal(combo, { specimenType: 'SALIVA' })).toEqual({
      'normalSpecimen.specimenType': 'Invalid Specimen Type',
    });
    expect(normal(subsequent, { specimenType: 'PLASMA' })).toEqual({});
    expect(normal({ nextPersonalDx: true }, { specimenType: 'PLASMA' })).toEqual({
      'normalSpecimen.specimenType': 'Invalid Specimen Type',
    });
  });
  it('given a single NeXT Dx order, then SALIVA and BUFFY_COAT are fine and PLASMA is not', () => {
    expect(normal(single, { specimenType: 'SALIVA' })).toEqual({});
    expect(normal(single, { specimenType: 'BUFFY_COAT' })).toEqual({});
    expect(normal({ ...single, orderType: 'SUBSEQUENT_ORDER' }, { specimenType: 'PLASMA' })).toEqual({
      'normalSpecimen.specimenType': 'Invalid Specimen Type',
    });
  });
  it.each([
    ['BLOOD', '2026-11-11', undefined],
    ['BLOOD', '2026-11-10', 'Date must be no earlier than 11/11/2026'],
    ['BLOOD', '2027-02-21', undefined],
    ['BLOOD', '2027-02-22', 'Date must be no later than 02/21/2027'],
    ['SALIVA', '2022-01-01', undefined],
    ['SALIVA', '2021-12-31', 'Date must be no earlier than 01/01/2022'],
    ['SALIVA', '2027-02-22', 'Date must be no later than 02/21/2027'],
    ['BLOOD', '11/20/2026', 'Invalid date'],
  ])('given %s collected on %s, then %s', (specimenType, collectionDate, message) => {
    expect(normal(single, { specimenType: specimenType as 'BLOOD', collectionDate })).toEqual(
      message ? { 'normalSpecimen.collectionDate': message } : {},
    );
  });
});

describe('billing', () => {
  const billing = (billings: RequisitionForm['billings'], ...perms: string[]) =>
    errorsOf(
      given((f) => (f.billings = billings)),
      ...perms,
    ).billing;

  it('given no billing, then "Billing Type is required"; IS_BILLING_OPTIONAL relaxes it', () => {
    expect(billing([])).toEqual({ 'billings.0.billingType': 'Billing Type is required' });
    expect(billing(null)).toEqual({ 'billings.0.billingType': 'Billing Type is required' });
    expect(billing([{ preference: 'PRIMARY' }])).toEqual({
      'billings.0.billingType': 'Billing Type is required',
    });
    expect(billing([], 'IS_BILLING_OPTIONAL')).toEqual({});
  });
  it('given only a secondary billing, then the primary is missing', () => {
    expect(billing([{ billingType: 'SELF', preference: 'SECONDARY' }])).toEqual({
      billings: 'Billing Type is required',
    });
  });
  it('given an empty INSURANCE primary, then each required field says "{label} is required"', () => {
    expect(billing([{ billingType: 'INSURANCE', preference: 'PRIMARY' }])).toEqual({
      'billings.0.insuranceProvider': 'Insurance Provider is required',
      'billings.0.payorId': 'Payor ID is required',
      'billings.0.insuredName': 'Insured Name is required',
      'billings.0.insuredDob': 'Insured Date of Birth is required',
      'billings.0.policyNumber': 'Policy Number is required',
      'billings.0.relationshipToPatient': 'Relationship to Patient is required',
    });
  });
  it('given IS_BILLING_OPTIONAL, then an empty INSURANCE primary has no required fields', () => {
    expect(billing([{ billingType: 'INSURANCE' }], 'IS_BILLING_OPTIONAL')).toEqual({});
  });
  it('given MEDICARE/MEDICAID, then the discharge date is required only for INPATIENT_DISCHARGED', () => {
    const base = completeForm().billings![0];
    for (const billingType of ['MEDICARE', 'MEDICAID'] as const) {
      expect(billing([{ ...base, billingType, patientStatus: 'INPATIENT_DISCHARGED' }])).toEqual({
        'billings.0.dischargeDate': 'Discharge Date is required',
      });
      expect(billing([{ ...base, billingType, patientStatus: 'INPATIENT' }])).toEqual({});
      expect(
        billing([
          { ...base, billingType, patientStatus: 'INPATIENT_DISCHARGED', dischargeDate: '2026-11-01' },
        ]),
      ).toEqual({});
    }
  });
  it('given FACILITY, then the facility type is required; OTHER and SELF need nothing', () => {
    expect(billing([{ billingType: 'FACILITY' }])).toEqual({
      'billings.0.facilityTypeName': 'Facility Type is required',
    });
    expect(billing([{ billingType: 'FACILITY', facilityTypeName: 'Hospital' }])).toEqual({});
    expect(billing([{ billingType: 'OTHER' }])).toEqual({});
    expect(billing([{ billingType: 'SELF' }])).toEqual({});
  });
  it('given a secondary INSURANCE with missing fields, then it is optional', () => {
    const primary = completeForm().billings![0];
    expect(billing([primary, { billingType: 'INSURANCE', preference: 'SECONDARY' }])).toEqual({});
  });
  it('given the primary second in the list, then its errors use its index', () => {
    expect(
      billing([
        { billingType: 'SELF', preference: 'SECONDARY' },
        { billingType: 'FACILITY', preference: 'PRIMARY' },
      ]),
    ).toEqual({
      'billings.1.facilityTypeName': 'Facility Type is required',
    });
  });
  it.each([
    ['2026-11-22', 'Date must be on/before 11/21/2026'],
    ['11/22/2026', 'Date must be on/before 11/21/2026'],
    ['1899-12-31', 'Date must be on/after 01/01/1900'],
    ['12/31/1899', 'Date must be on/after 01/01/1900'],
    ['13/01/2000', 'Enter a valid date (MM/DD/YYYY)'],
    ['garbage', 'Enter a valid date (MM/DD/YYYY)'],
    ['05/04/1960', undefined],
    ['1900-01-01', undefined],
    ['2026-11-21', undefined],
  ])('given insured date of birth %s, then %s', (insuredDob, message) => {
    const b = { ...completeForm().billings![0], insuredDob };
    expect(billing([b])).toEqual(message ? { 'billings.0.insuredDob': message } : {});
  });
  it('given a future discharge date on a secondary Medicare billing, then it is reported too', () => {
    const primary = completeForm().billings![0];
    const secondary = {
      billingType: 'MEDICARE' as const,
      preference: 'SECONDARY' as const,
      patientStatus: 'INPATIENT_DISCHARGED' as const,
      dischargeDate: '2027-01-01',
    };
    expect(billing([primary, secondary])).toEqual({
      'billings.1.dischargeDate': 'Date must be on/before 11/21/2026',
    });
  });
  it('primaryBillingIndex: PRIMARY, else the first without preference, 0 when empty, -1 when none', () => {
    expect(primaryBillingIndex([])).toBe(0);
    expect(primaryBillingIndex([{ preference: 'SECONDARY' }, { preference: 'PRIMARY' }])).toBe(1);
    expect(primaryBillingIndex([{ preference: 'SECONDARY' }, {}])).toBe(1);
    expect(primaryBillingIndex([{ preference: 'SECONDARY' }])).toBe(-1);
  });
});

describe('signature, submit and save problems', () => {
  it('given no approval, when submitting, then only the signature block is reported', () => {
    const f = given((f) => (f.approvals = []));
    expect(submitProblems(f, ctx())).toEqual({ signature: { approvals: REQUIRED } });
  });
  it('given missing and invalid values, when saving a draft, then only the invalid values block the save', () => {
    const f = given((f) => ((f.patient = { phone: '1' }), (f.approvals = null)));
    expect(saveProblems(f, ctx())).toEqual({ patient: { 'patient.phone': 'Invalid Phone' } });
    expect(saveProblems(completeForm(), ctx())).toEqual({});
    expect(saveProblems({}, ctx())).toEqual({});
  });
  it('given problems in some blocks, when submitting, then only those blocks are listed', () => {
    const f = given((f) => ((f.account = null), (f.billings = [])));
    expect(submitProblems(f, ctx())).toEqual({
      account: { 'account.name': REQUIRED },
      billing: { 'billings.0.billingType': 'Billing Type is required' },
    });
    expect(hasProblems(submitProblems(f, ctx()))).toBe(true);
  });
  it('given every IS_*_OPTIONAL permission, when an empty signed form is submitted, then nothing is required', () => {
    const all = [
      'IS_TEST_SELECTION_OPTIONAL',
      'IS_BILLING_OPTIONAL',
      'IS_PROVIDER_INFO_OPTIONAL',
      'IS_PATIENT_INFO_OPTIONAL',
      'IS_SPECIMEN_INFO_OPTIONAL',
    ];
    expect(submitProblems({ approvals: completeForm().approvals }, ctx(...all))).toEqual({});
  });
});

describe('requisitionWarnings (Medicare)', () => {
  const WARNING = 'Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type';
  const medicare = (change: (f: RequisitionForm) => void) =>
    given((f) => {
      f.billings = [{ billingType: 'MEDICARE', preference: 'PRIMARY' }];
      change(f);
    });
  it('given Medicare, a NeXT Personal Dx order and a missing drug name, stage or ICD-10 code, then the warning', () => {
    expect(requisitionWarnings(medicare((f) => (f.tumorSpecimen!.drugName = null)))).toEqual([WARNING]);
    expect(requisitionWarnings(medicare((f) => (f.tumorSpecimen!.stage = null)))).toEqual([WARNING]);
    expect(requisitionWarnings(medicare((f) => (f.tumorSpecimen!.icd10Codes = '')))).toEqual([WARNING]);
    expect(requisitionWarnings(medicare((f) => (f.tumorSpecimen = null)))).toEqual([WARNING]);
  });
  it('given all three present, or no NeXT Personal Dx, or no Medicare, then no warning', () => {
    expect(requisitionWarnings(medicare(() => {}))).toEqual([]);
    expect(
      requisitionWarnings(
        medicare((f) => ((f.orderInformation = { nextDx: true }), (f.tumorSpecimen!.drugName = null))),
      ),
    ).toEqual([]);
    expect(requisitionWarnings(given((f) => (f.tumorSpecimen!.drugName = null)))).toEqual([]);
  });
  it('given Medicare as the secondary billing, then the warning shows too', () => {
    const f = given((f) => {
      f.billings!.push({ billingType: 'MEDICARE', preference: 'SECONDARY' });
      f.tumorSpecimen!.stage = null;
    });
    expect(requisitionWarnings(f)).toEqual([WARNING]);
  });
});

describe('medicareDataMissing (what the warning and the billing pre-submit checks name)', () => {
  const medicare = (change: (f: RequisitionForm) => void) =>
    given((f) => {
      f.billings = [{ billingType: 'MEDICARE', preference: 'PRIMARY' }];
      change(f);
    });
  it('names each missing field, in the order of the message', () => {
    expect(medicareDataMissing(medicare(() => {}))).toEqual([]);
    expect(
      medicareDataMissing(
        medicare((f) => ((f.tumorSpecimen!.drugName = ' '), (f.tumorSpecimen!.stage = null))),
      ),
    ).toEqual(['drugName', 'stage']);
    expect(medicareDataMissing(medicare((f) => (f.tumorSpecimen = null)))).toEqual([
      'drugName',
      'stage',
      'icd10Codes',
    ]);
  });
  it('is empty without Medicare or without NeXT Personal Dx', () => {
    expect(medicareDataMissing(given((f) => (f.tumorSpecimen = null)))).toEqual([]);
    expect(
      medicareDataMissing(
        medicare((f) => ((f.orderInformation = { nextDx: true }), (f.tumorSpecimen = null))),
      ),
    ).toEqual([]);
  });
});
