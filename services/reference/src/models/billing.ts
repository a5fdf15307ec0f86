import { BILLING_PREFERENCES, BILLING_TYPES, PATIENT_STATUSES, RELATIONSHIPS } from '@onco/domain';
import { auditedSchema } from '@onco/platform';
import type { Audited } from './common';

/** A saved insurance (billing entry) of a patient (spec 2 section 3, "Billing"). */
export interface PatientBillingDoc extends Audited {
  patientId: string;
  billingType: (typeof BILLING_TYPES)[number];
  preference: (typeof BILLING_PREFERENCES)[number] | null;
  insuranceProvider: string | null;
  payorId: string | null;
  insuredName: string | null;
  insuredDob: string | null;
  policyNumber: string | null;
  groupNumber: string | null;
  canonicalPolicyNumber: string | null;
  canonicalGroupNumber: string | null;
  priorAuthorizationNumber: string | null;
  relationshipToPatient: (typeof RELATIONSHIPS)[number];
  patientStatus: (typeof PATIENT_STATUSES)[number] | null;
  dischargeDate: string | null;
  facilityTypeName: string | null;
  otherTypeName: string | null;
  isDefault: boolean;
}

const str = () => ({ type: String, default: null });

export const patientBillingSchema = auditedSchema(
  {
    patientId: { type: String, required: true },
    billingType: { type: String, enum: BILLING_TYPES, default: 'INSURANCE' },
    preference: { type: String, enum: [...BILLING_PREFERENCES, null], default: null },
    insuranceProvider: str(),
    payorId: str(),
    insuredName: str(),
    /** YYYY-MM-DD */
    insuredDob: str(),
    policyNumber: str(),
    groupNumber: str(),
    canonicalPolicyNumber: str(),
    canonicalGroupNumber: str(),
    priorAuthorizationNumber: str(),
    relationshipToPatient: { type: String, enum: RELATIONSHIPS, default: 'SELF' },
    patientStatus: { type: String, enum: [...PATIENT_STATUSES, null], default: null },
    /** YYYY-MM-DD */
    dischargeDate: str(),
    facilityTypeName: str(),
    otherTypeName: str(),
    isDefault: { type: Boolean, default: false },
  },
  { collection: 'patient_billings' },
);
// GET patient billings by patient id (the patient detail's Billing Information tab)
patientBillingSchema.index({ patientId: 1 });

export interface PayorDoc extends Audited {
  name: string;
  payorGroup: string | null;
  payorId: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
}

export const payorSchema = auditedSchema(
  {
    name: { type: String, required: true },
    payorGroup: str(),
    payorId: { type: String, required: true },
    street: str(),
    city: str(),
    state: str(),
    zipCode: str(),
  },
  { collection: 'payors' },
);
// GET /payors: default sort name asc
payorSchema.index({ name: 1 });
// GET /payors?filter={"payorId":...}: picking a payor fills the payor id
payorSchema.index({ payorId: 1 });
