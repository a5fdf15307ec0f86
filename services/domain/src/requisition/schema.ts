import { z } from 'zod';
import {
  ALL_ATTACHMENT_TYPES,
  BILLING_PREFERENCES,
  BILLING_TYPES,
  BIOPSY_SITES,
  BIRTH_SEXES,
  BLOOD_COLLECTION_MODES,
  CLINICAL_REVIEW_STATUSES,
  DELIVERY_METHODS,
  DIAGNOSES,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  ORDER_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  REQUISITION_STATUSES,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TISSUE_OBTAIN_METHODS,
  TUMOR_SPECIMEN_TYPES,
} from '../enums';
import { parseIsoDate } from './dates';
import { REQ_MSG } from './messages';

/**
 * The requisition form on the wire (create, save, submit bodies; the console wizard's state): the stored
 * RequisitionDoc minus what the server owns (_id, testRequisitionId, testOrders, sampleStatuses, reports,
 * billingReview, limsProjectIds, trfTemplate, sfdcCaseId, outbox, audit fields, deleted). Drafts are partial,
 * so every block and field is optional and nullable. Unknown keys are stripped (zod's default). Enumerated
 * fields accept only their enumeration; calendar dates are 'YYYY-MM-DD' text ('Invalid date' otherwise).
 * Required-ness and every other rule live in validateRequisition, not here.
 */

const text = z.string().nullish();
const flag = z.boolean().nullish();
/** Decision: '' is accepted for an empty date (form inputs clear to '') and read as "no date". */
const calendarDate = z
  .string()
  .refine((v) => v === '' || parseIsoDate(v) === v, { message: REQ_MSG.invalidDate })
  .nullish();
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).nullish();
/** Server timestamps come back as ISO text over JSON and as Date from the store: both are accepted. */
const timestamp = z.union([z.string(), z.date()]).nullish();

export const AddressSchema = z.object({
  street: text,
  city: text,
  state: text,
  postalCode: text,
  country: text,
});

/** The picked person's id, number (PAT #, provider #) and name parts: patients and providers alike. */
const personFields = {
  id: text,
  userId: text,
  firstName: text,
  middleName: text,
  lastName: text,
  name: text,
};

export const PatientFormSchema = z.object({
  ...personFields,
  race: text,
  ethnicity: text,
  address: AddressSchema.nullish(),
  phone: text,
  fax: text,
  email: text,
  mrn: text,
  dateOfBirth: calendarDate,
  birthSex: oneOf(BIRTH_SEXES),
  trialName: text,
  studyPatientId: text,
  diagnosis: text,
});

export const ProviderFormSchema = z.object({
  ...personFields,
  phone: text,
  email: text,
  fax: text,
});

/**
 * The ordering provider: a provider plus how the report is delivered to them (EMAIL, FAX, BOTH; optional). Only
 * the ordering provider has it: the additional provider gets a copy the lab sends its own way.
 */
export const OrderingProviderFormSchema = ProviderFormSchema.extend({
  deliveryMethod: oneOf(DELIVERY_METHODS),
});

export const LocationFormSchema = z.object({
  id: text,
  name: text,
  hospitalLocationId: text,
  address: AddressSchema.extend({ telephone: text, fax: text }).nullish(),
});

export const AccountFormSchema = z.object({ id: text, accountId: text, name: text });

export const PathologistFormSchema = z.object({
  id: text,
  name: text,
  npi: text,
  phone: text,
  email: text,
  fax: text,
});

export const OrderInformationSchema = z.object({
  nextDx: flag,
  nextPersonalDx: flag,
  orderType: oneOf(ORDER_TYPES),
});

export const TumorSpecimenFormSchema = z.object({
  diagnosis: oneOf(DIAGNOSES),
  otherDiagnosis: text,
  octDxBreadCrumb: text,
  primaryTumorSite: text,
  /** ICD-10 codes, one comma-separated string (the spec's {hash} field) */
  icd10Codes: text,
  reviewDiagnosis: flag,
  planOrReceivingImmunotherapy: flag,
  drugName: text,
  dateOfDiagnosis: calendarDate,
  diseaseStatus: oneOf(DISEASE_STATUSES),
  currentTherapies: z.array(z.string()).nullish(),
  priorTherapies: z.array(z.string()).nullish(),
  stage: oneOf(STAGES),
  otherStage: text,
  specimenBiopsySite: oneOf(BIOPSY_SITES),
  otherBiopsySite: text,
  specimenRequestType: oneOf(SPECIMEN_REQUEST_TYPES),
  ffpeTissueObtainMethod: oneOf(TISSUE_OBTAIN_METHODS),
  specimenId: text,
  collectionDate: calendarDate,
  specimenType: oneOf(TUMOR_SPECIMEN_TYPES),
  /** tumor percentage; range checked by validateRequisition ('The minimum is 0' / 'The maximum is 100') */
  content: z.number().nullish(),
  doNotExhaust: flag,
});

export const NormalSpecimenFormSchema = z.object({
  specimenType: oneOf(NORMAL_SPECIMEN_TYPES),
  /** the spec's bloodCollectionMode */
  collectionMode: oneOf(BLOOD_COLLECTION_MODES),
  collectionDate: calendarDate,
  isPreSurgicalOrPreBiopsySample: flag,
});

/** A billing entry. Its audit fields (archived, created/updated, version) are server-owned and stripped. */
export const BillingFormSchema = z.object({
  id: text,
  billingType: oneOf(BILLING_TYPES),
  preference: oneOf(BILLING_PREFERENCES),
  insuranceProvider: text,
  payorId: text,
  insuredName: text,
  insuredDob: calendarDate,
  policyNumber: text,
  groupNumber: text,
  priorAuthorizationNumber: text,
  relationshipToPatient: oneOf(RELATIONSHIPS),
  patientStatus: oneOf(PATIENT_STATUSES),
  dischargeDate: calendarDate,
  facilityTypeName: text,
  otherTypeName: text,
  /** derived by normalizeForSave from policyNumber; whatever the client sends is overwritten */
  canonicalPolicyNumber: text,
  /** derived by normalizeForSave from groupNumber; whatever the client sends is overwritten */
  canonicalGroupNumber: text,
  patientInsuranceId: text,
});

/** A reference to an uploaded attachment (the upload itself is a separate call). */
export const AttachmentRefSchema = z.object({
  id: z.string().min(1),
  name: text,
  type: oneOf(ALL_ATTACHMENT_TYPES),
  size: z.number().nullish(),
  contentType: text,
  createdOn: timestamp,
});

/**
 * An approval (signature). Accepted so a loaded requisition round-trips through the form; the server must
 * take approvals only from its signing flow, never from a client body.
 */
export const ApprovalSchema = z.object({
  approvedBy: z.object({ id: text, name: text }),
  createdOn: timestamp,
});

export const ParentTestOrderFormSchema = z.object({
  id: text,
  testRequisitionId: text,
  limsProjectIds: z.array(z.string()).nullish(),
});

export const RequisitionFormSchema = z.object({
  status: oneOf(REQUISITION_STATUSES),
  clinicalReviewStatus: oneOf(CLINICAL_REVIEW_STATUSES),
  isNYState: flag,
  patient: PatientFormSchema.nullish(),
  physician: OrderingProviderFormSchema.nullish(),
  account: AccountFormSchema.nullish(),
  hospitalLocation: LocationFormSchema.nullish(),
  pathologist: PathologistFormSchema.nullish(),
  pathologistLocation: LocationFormSchema.nullish(),
  additionalPhysician: ProviderFormSchema.nullish(),
  additionalPhysicianLocation: LocationFormSchema.nullish(),
  orderInformation: OrderInformationSchema.nullish(),
  parentTestOrderForm: ParentTestOrderFormSchema.nullish(),
  tumorSpecimen: TumorSpecimenFormSchema.nullish(),
  normalSpecimen: NormalSpecimenFormSchema.nullish(),
  billings: z.array(BillingFormSchema).nullish(),
  attachments: z.array(AttachmentRefSchema).nullish(),
  approvals: z.array(ApprovalSchema).nullish(),
  consent: flag,
  comment: text,
  kitId: text,
});

export type RequisitionForm = z.infer<typeof RequisitionFormSchema>;
export type PatientForm = z.infer<typeof PatientFormSchema>;
export type ProviderForm = z.infer<typeof ProviderFormSchema>;
export type OrderingProviderForm = z.infer<typeof OrderingProviderFormSchema>;
export type LocationForm = z.infer<typeof LocationFormSchema>;
export type TumorSpecimenForm = z.infer<typeof TumorSpecimenFormSchema>;
export type NormalSpecimenForm = z.infer<typeof NormalSpecimenFormSchema>;
export type BillingForm = z.infer<typeof BillingFormSchema>;
export type OrderInformation = z.infer<typeof OrderInformationSchema>;
