import { BILLING_PREFERENCES, BILLING_TYPES, PATIENT_STATUSES, RELATIONSHIPS } from '../enums';
import { formatDisplayDate, MIN_DATE, parseBillingDate, parseIsoDate } from '../requisition/dates';
import { canonicalNumber } from '../requisition/normalize';
import {
  BILLING_FIELD_LABELS,
  BILLING_INSURANCE_FIELDS,
  INSURANCE_REQUIRED_FIELDS,
  hasInsuranceFields,
} from '../billing/billing-fields';

/**
 * A patient's saved billing entry (spec 1 section 5 "Billing", spec 2 section 5 "Billing form"): the checks the
 * "Add or Edit Billing Information" dialog shows live and the reference service applies on every write, so the
 * rule exists once. Messages are the spec's wording.
 */
export interface BillingEntryForm {
  billingType?: string | null;
  preference?: string | null;
  insuranceProvider?: string | null;
  payorId?: string | null;
  insuredName?: string | null;
  insuredDob?: string | null;
  policyNumber?: string | null;
  groupNumber?: string | null;
  priorAuthorizationNumber?: string | null;
  relationshipToPatient?: string | null;
  patientStatus?: string | null;
  dischargeDate?: string | null;
  facilityTypeName?: string | null;
  otherTypeName?: string | null;
}

export type CheckedBillingEntry = Required<BillingEntryForm> & {
  canonicalPolicyNumber: string | null;
  canonicalGroupNumber: string | null;
};

const { billingType: _billingType, ...fieldLabels } = BILLING_FIELD_LABELS;
/** The patient's billing dialog's labels: the billing step's, with its own wording for a few. */
export const BILLING_ENTRY_LABELS: Record<string, string> = {
  billingType: 'Payment Type',
  preference: 'Preference',
  ...fieldLabels,
  payorId: 'Payor Id',
  insuredDob: 'Insured DOB',
};

export const BILLING_ENTRY_MSG = {
  required: (label: string) => `${label} is required`,
  invalid: (label: string) => `Invalid ${label}`,
  dateFormat: 'Enter a valid date (MM/DD/YYYY)',
  onAfter: `Date must be on/after ${formatDisplayDate(MIN_DATE)}`,
  onBefore: (today: string) => `Date must be on/before ${today}`,
} as const;

export { BILLING_INSURANCE_FIELDS, hasInsuranceFields } from '../billing/billing-fields';

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const isoDayOf = (d: Date) => d.toISOString().slice(0, 10);

/** A billing date typed MM/DD/YYYY (YYYY-MM-DD accepted: the stored form), as YYYY-MM-DD, or null. */
export const parseEntryDate = (raw: string) => parseBillingDate(raw) ?? parseIsoDate(raw);

/**
 * Check a billing entry by its billing type: INSURANCE, MEDICARE and MEDICAID need the insurance fields
 * (relationship defaults to SELF; discharge date only for MEDICARE/MEDICAID with INPATIENT_DISCHARGED, otherwise
 * cleared); FACILITY needs the facility type; OTHER and SELF need nothing. Fields a type hides are cleared.
 * Insured DOB and discharge date: MM/DD/YYYY, 01/01/1900 to today; stored YYYY-MM-DD. Canonical policy and
 * group numbers are derived from the typed values.
 */
export function checkBillingEntry(
  b: BillingEntryForm,
  today: Date,
): { value: CheckedBillingEntry } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const t = (v: string | null | undefined) => (blank(v) ? null : String(v).trim());
  const out: CheckedBillingEntry = {
    billingType: t(b.billingType),
    preference: t(b.preference),
    insuranceProvider: t(b.insuranceProvider),
    payorId: t(b.payorId),
    insuredName: t(b.insuredName),
    insuredDob: t(b.insuredDob),
    policyNumber: t(b.policyNumber),
    groupNumber: t(b.groupNumber),
    priorAuthorizationNumber: t(b.priorAuthorizationNumber),
    relationshipToPatient: t(b.relationshipToPatient),
    patientStatus: t(b.patientStatus),
    dischargeDate: t(b.dischargeDate),
    facilityTypeName: t(b.facilityTypeName),
    otherTypeName: t(b.otherTypeName),
    canonicalPolicyNumber: null,
    canonicalGroupNumber: null,
  };
  const req = (f: keyof BillingEntryForm) => {
    if (!out[f]) errors[f] = BILLING_ENTRY_MSG.required(BILLING_ENTRY_LABELS[f]);
  };
  const oneOf = (f: keyof BillingEntryForm, values: readonly string[]) => {
    if (out[f] && !values.includes(out[f]!))
      errors[f] = BILLING_ENTRY_MSG.invalid(BILLING_ENTRY_LABELS[f] ?? f);
  };
  const todayIso = isoDayOf(today);
  const billingDate = (f: 'insuredDob' | 'dischargeDate') => {
    const v = out[f];
    if (!v) return;
    const d = parseEntryDate(v);
    if (!d) errors[f] = BILLING_ENTRY_MSG.dateFormat;
    else if (d < MIN_DATE) errors[f] = BILLING_ENTRY_MSG.onAfter;
    else if (d > todayIso) errors[f] = BILLING_ENTRY_MSG.onBefore(formatDisplayDate(todayIso));
    else out[f] = d;
  };

  req('billingType');
  oneOf('billingType', BILLING_TYPES);
  oneOf('preference', BILLING_PREFERENCES);
  oneOf('relationshipToPatient', RELATIONSHIPS);
  oneOf('patientStatus', PATIENT_STATUSES);
  const type = out.billingType ?? '';

  if (hasInsuranceFields(type)) {
    out.relationshipToPatient ??= 'SELF'; // "relationshipToPatient (default self)"
    for (const f of INSURANCE_REQUIRED_FIELDS) req(f);
    const medi = type === 'MEDICARE' || type === 'MEDICAID';
    if (medi && out.patientStatus === 'INPATIENT_DISCHARGED') req('dischargeDate');
    else out.dischargeDate = null;
    billingDate('insuredDob');
    billingDate('dischargeDate');
  } else {
    for (const f of BILLING_INSURANCE_FIELDS) out[f] = null;
  }
  if (type === 'FACILITY') req('facilityTypeName');
  else out.facilityTypeName = null;
  if (type !== 'OTHER') out.otherTypeName = null;

  if (Object.keys(errors).length) return { errors };
  out.canonicalPolicyNumber = canonicalNumber(out.policyNumber);
  out.canonicalGroupNumber = canonicalNumber(out.groupNumber);
  return { value: out };
}
