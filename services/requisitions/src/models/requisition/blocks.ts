import {
  ALL_ATTACHMENT_TYPES,
  BILLING_PREFERENCES,
  BILLING_TYPES,
  BIOPSY_SITES,
  BIRTH_SEXES,
  BLOOD_COLLECTION_MODES,
  DELIVERY_METHODS,
  DIAGNOSES,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  ORDER_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TEST_STATUSES,
  TEST_TYPES,
  TISSUE_OBTAIN_METHODS,
  TUMOR_SPECIMEN_TYPES,
} from '@onco/domain';
import { bool, calendarDate, idName, str, sub } from '../common';

/**
 * The embedded blocks of the requisition schema (../requisition.ts), one sub-schema each: the snapshots of the
 * picked patient, providers and locations, the specimens, billings, attachment and report references,
 * approvals and the lab's test order summaries.
 */

const address = () => sub({ street: str, city: str, state: str, postalCode: str, country: str });

export const patientSchema = sub({
  id: str,
  userId: str, // the patient number shown as PAT #
  firstName: str,
  middleName: str,
  lastName: str,
  name: str,
  race: str,
  ethnicity: str,
  address: { type: address(), default: null },
  phone: str,
  fax: str,
  email: str,
  mrn: str,
  dateOfBirth: calendarDate,
  birthSex: { type: String, enum: BIRTH_SEXES, default: null },
  trialName: str,
  studyPatientId: str,
  diagnosis: str,
});

const providerFields = {
  id: str,
  userId: str, // the NPI number
  firstName: str,
  middleName: str,
  lastName: str,
  name: str,
  phone: str,
  email: str,
  fax: str,
};

/** A provider snapshot (the additional provider). */
export const providerSchema = () => sub(providerFields);

/** The ordering provider: a provider snapshot plus how the report is delivered to them (none: not chosen). */
export const orderingProviderSchema = () =>
  sub({ ...providerFields, deliveryMethod: { type: String, enum: DELIVERY_METHODS, default: null } });

export const locationSchema = () =>
  sub({
    id: str,
    name: str,
    hospitalLocationId: str,
    address: {
      type: sub({
        street: str,
        city: str,
        state: str,
        postalCode: str,
        country: str,
        telephone: str,
        fax: str,
      }),
      default: null,
    },
  });

export const pathologistSchema = sub({ id: str, name: str, npi: str, phone: str, email: str, fax: str });

export const tumorSpecimenSchema = sub({
  diagnosis: { type: String, enum: DIAGNOSES, default: null },
  otherDiagnosis: str,
  /** the picked diagnosis path, stored as JSON text (spec 1 section 3) */
  octDxBreadCrumb: str,
  primaryTumorSite: str,
  /** the spec's {hash}: ICD-10 codes, comma-separated, at most 6 (the domain schema enforces the limit) */
  icd10Codes: str,
  /** the provider asks for a pathology review of the diagnosis (submit then sets NEEDS_REVIEW) */
  reviewDiagnosis: bool,
  planOrReceivingImmunotherapy: bool,
  drugName: str,
  dateOfDiagnosis: calendarDate,
  diseaseStatus: { type: String, enum: DISEASE_STATUSES, default: null },
  currentTherapies: { type: [String], default: [] },
  priorTherapies: { type: [String], default: [] },
  stage: { type: String, enum: STAGES, default: null },
  otherStage: str,
  specimenBiopsySite: { type: String, enum: BIOPSY_SITES, default: null },
  otherBiopsySite: str,
  specimenRequestType: { type: String, enum: SPECIMEN_REQUEST_TYPES, default: null },
  ffpeTissueObtainMethod: { type: String, enum: TISSUE_OBTAIN_METHODS, default: null },
  specimenId: str,
  collectionDate: calendarDate,
  specimenType: { type: String, enum: TUMOR_SPECIMEN_TYPES, default: null },
  /** tumor percentage */
  content: { type: Number, min: 0, max: 100, default: null },
  doNotExhaust: bool,
});

export const normalSpecimenSchema = sub({
  specimenType: { type: String, enum: NORMAL_SPECIMEN_TYPES, default: null },
  /** the spec also calls it bloodCollectionMode; cleared when specimenType is not BLOOD */
  collectionMode: { type: String, enum: BLOOD_COLLECTION_MODES, default: null },
  collectionDate: calendarDate,
  isPreSurgicalOrPreBiopsySample: bool,
});

export const billingSchema = sub({
  id: { type: String, required: true },
  billingType: { type: String, enum: BILLING_TYPES, required: true, default: 'INSURANCE' },
  preference: { type: String, enum: BILLING_PREFERENCES, default: null },
  insuranceProvider: str,
  payorId: str,
  insuredName: str,
  insuredDob: calendarDate,
  policyNumber: str,
  groupNumber: str,
  priorAuthorizationNumber: str,
  relationshipToPatient: { type: String, enum: RELATIONSHIPS, default: 'SELF' },
  patientStatus: { type: String, enum: PATIENT_STATUSES, default: null },
  dischargeDate: calendarDate,
  facilityTypeName: str,
  otherTypeName: str,
  canonicalPolicyNumber: str,
  canonicalGroupNumber: str,
  patientInsuranceId: str,
  archived: { type: Boolean, default: false },
  createdBy: str,
  createdOn: { type: Date, default: () => new Date() },
  updatedBy: str,
  updatedOn: { type: Date, default: () => new Date() },
  version: { type: Number, default: 0 },
});

export const attachmentRefSchema = sub({
  id: { type: String, required: true },
  name: { type: String, required: true },
  type: { type: String, enum: ALL_ATTACHMENT_TYPES, required: true },
  size: { type: Number, default: 0 },
  contentType: { type: String, default: 'application/octet-stream' },
  createdOn: { type: Date, default: () => new Date() },
});

export const approvalSchema = sub({
  approvedBy: { type: idName(), required: true },
  createdOn: { type: Date, default: () => new Date() },
});

export const testOrderSummarySchema = sub({
  id: { type: String, required: true },
  testOrderId: str,
  testType: { type: String, enum: TEST_TYPES, required: true },
  orderType: { type: String, enum: ORDER_TYPES, required: true },
  status: { type: String, enum: TEST_STATUSES, required: true },
  /** due date (YYYY-MM-DD) as the lab last reported it */
  dueOn: str,
  /** when the lab changed the status (test-status events older than this are not applied) */
  statusChangedOn: { type: Date, default: null },
});

export const reportRefSchema = sub({
  id: { type: String, required: true },
  testOrderId: str,
  name: str,
  contentType: str,
  createdOn: { type: Date, default: null },
});
