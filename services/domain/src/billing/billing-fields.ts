/**
 * The fields of a billing (spec 1 section 5 billing table, spec 2 section 5 "Billing form"), their labels and the
 * insurance fields, one copy for the requisition wizard's billing step (requisition/options.ts) and the patient's
 * saved billing entries (patients/patient-billing.ts). No imports: both sides (which import each other
 * indirectly) read it.
 */

/** The billing step's field labels (the patient's billing dialog words a few of them its own way). */
export const BILLING_FIELD_LABELS: Record<string, string> = {
  billingType: 'Billing Type',
  insuranceProvider: 'Insurance Provider',
  payorId: 'Payor ID',
  insuredName: 'Insured Name',
  insuredDob: 'Insured Date of Birth',
  policyNumber: 'Policy Number',
  groupNumber: 'Group Number',
  priorAuthorizationNumber: 'Prior Authorization Number',
  relationshipToPatient: 'Relationship to Patient',
  patientStatus: 'Patient Status',
  dischargeDate: 'Discharge Date',
  facilityTypeName: 'Facility Type',
  otherTypeName: 'Please Specify',
};

/** The insurance fields every insurance-like billing type shows, in the form's order. */
export const INSURANCE_BASE_FIELDS = [
  'insuranceProvider',
  'payorId',
  'insuredName',
  'insuredDob',
  'policyNumber',
  'groupNumber',
  'priorAuthorizationNumber',
  'relationshipToPatient',
] as const;

/** The insurance fields, in the dialog's order; shown for INSURANCE, MEDICARE and MEDICAID only. */
export const BILLING_INSURANCE_FIELDS = [...INSURANCE_BASE_FIELDS, 'patientStatus', 'dischargeDate'] as const;

/** The insurance fields an insurance-like billing type requires. */
export const INSURANCE_REQUIRED_FIELDS = [
  'insuranceProvider',
  'payorId',
  'insuredName',
  'insuredDob',
  'policyNumber',
  'relationshipToPatient',
] as const;

/** Which billing types show the insurance fields (hidden for SELF, FACILITY and OTHER, and with no type). */
export const hasInsuranceFields = (t: string | null | undefined) =>
  t === 'INSURANCE' || t === 'MEDICARE' || t === 'MEDICAID';
