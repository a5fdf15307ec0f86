/** The product's shared enumerations (spec 1 section 9, spec 2 section 9, spec 3 section 9.2). */
export const TEST_TYPES = ['NEXT_DX', 'NEXT_PERSONAL_DX'] as const;
export type TestType = (typeof TEST_TYPES)[number];

export const ORDER_TYPES = ['INITIAL_ORDER', 'SUBSEQUENT_ORDER'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const REQUISITION_STATUSES = ['DRAFT', 'SUBMITTED', 'INVALID'] as const;
export type RequisitionStatus = (typeof REQUISITION_STATUSES)[number];

export const TEST_STATUSES = [
  'TEST_SELECTED',
  'TEST_ORDERED',
  'IN_PROGRESS',
  'TNP_AWAITING_REPLACEMENT',
  'REPLACEMENT_AWAITING',
  'AMENDMENT_AWAITING',
  'REPORT_COMPLETE',
  'TNP_REPORT_COMPLETE',
  'REPORT_AMENDED',
  'CANCELLED',
] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

export const CLINICAL_REVIEW_STATUSES = [
  'AWAITING_PATH_REPORT',
  'NEEDS_REVIEW',
  'IN_PROGRESS',
  'NEEDS_ATTENTION',
  'REVIEW_COMPLETE',
  'DISQUALIFIED',
] as const;
export type ClinicalReviewStatus = (typeof CLINICAL_REVIEW_STATUSES)[number];
/**
 * The clinical reviews still to be done (the home page's Review filter "Open reviews"; ours, the spec names the
 * filter only): every status but REVIEW_COMPLETE and DISQUALIFIED.
 */
export const OPEN_CLINICAL_REVIEW_STATUSES: readonly ClinicalReviewStatus[] = CLINICAL_REVIEW_STATUSES.filter(
  (s) => s !== 'REVIEW_COMPLETE' && s !== 'DISQUALIFIED',
);

export const BILLING_REVIEW_STATUSES = [
  'NEEDS_REVIEW',
  'NEEDS_ATTENTION',
  'REVIEW_COMPLETE',
  'AWAITING_INFO',
] as const;
export type BillingReviewStatus = (typeof BILLING_REVIEW_STATUSES)[number];

export const USER_STATUSES = [
  'ACTIVE',
  'LOCKED_OUT',
  'PASSWORD_EXPIRED',
  'INACTIVE',
  'PROVISIONED',
  'RECOVERY',
  'SUSPENDED',
] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const AUTHENTICATION_PROVIDERS = ['OKTA', 'ACTIVE_DIRECTORY'] as const;
export type AuthenticationProvider = (typeof AUTHENTICATION_PROVIDERS)[number];

export const SPECIMEN_TYPES = ['TUMOR', 'NORMAL', 'PLASMA'] as const;
export type SpecimenKind = (typeof SPECIMEN_TYPES)[number];

export const KIT_TYPES = ['FFPE', 'EDTA', 'STRECK'] as const;
export const SHIPPING_REQUESTS = ['GROUND', 'TWO_DAY', 'OVER_NIGHT'] as const;
export const DIAGNOSES = ['BREAST', 'COLORECTAL', 'LUNG', 'MELANOMA', 'PROSTATE', 'OTHER'] as const;
export const STAGES = ['I', 'II', 'III', 'IV', 'OTHER'] as const;
export const RELATIONSHIPS = ['SELF', 'CHILD', 'SPOUSE', 'OTHER', 'UNKNOWN'] as const;
export const BIRTH_SEXES = ['FEMALE', 'MALE', 'INTERSEX'] as const;
export const DELIVERY_METHODS = ['EMAIL', 'FAX', 'BOTH'] as const;
export const BILLING_TYPES = ['INSURANCE', 'FACILITY', 'SELF', 'MEDICARE', 'MEDICAID', 'OTHER'] as const;
export type BillingType = (typeof BILLING_TYPES)[number];
export const BILLING_PREFERENCES = ['PRIMARY', 'SECONDARY', 'OTHER'] as const;
export const PATIENT_STATUSES = ['INPATIENT', 'INPATIENT_DISCHARGED', 'OFFICE', 'OUTPATIENT'] as const;
export const SPECIMEN_REQUEST_TYPES = ['PATHOLOGIST_CHOOSES', 'SPECIFIC_SPECIMEN'] as const;
export const BIOPSY_SITES = ['METASTASIS', 'PRIMARY', 'OTHER'] as const;
export const TUMOR_SPECIMEN_TYPES = ['FFPE_SLIDES', 'FFPE_BLOCK', 'FRESH_FROZEN_TISSUE'] as const;
/** PLASMA: offered only for subsequent orders (spec 1 section 5, Blood specimen); see requisition/options.ts */
export const NORMAL_SPECIMEN_TYPES = ['BLOOD', 'SALIVA', 'BUFFY_COAT', 'PLASMA'] as const;
export const BLOOD_COLLECTION_MODES = ['COLLECT_IN_CLINIC', 'MOBILE_PHLEBOTOMY'] as const;
export const DISEASE_STATUSES = [
  'ACTIVE_DISEASE',
  'NED',
  'RECURRENT',
  'RELAPSED',
  'REFRACTORY',
  'METASTATIC',
] as const;
export const TISSUE_OBTAIN_METHODS = ['CONTACT_PATHOLOGY_LAB', 'SELF_SHIPMENT'] as const;

export const ATTACHMENT_KINDS = [
  'NOTE',
  'RECENT_PATHOLOGY_REPORT',
  'CYTOLOGY_REPORT',
  'DIAGNOSTIC_TEST',
  'INSURANCE',
  'ABN',
  'TRF',
  'OTHER',
  'FINANCIAL_ASSISTANCE',
  'TEST_REPORT',
] as const;
export const REPORT_DOCUMENT_TYPES = [
  'SAMPLE_MANIFEST',
  'DELIVERY_REPORT',
  'UPDATE_DIGEST',
  'BILLING_REPORT',
  'SAMPLE_RETURN_MANIFEST',
  'ARRIVAL_SAMPLE_MANIFEST',
  'CANCELLED_ORDER_DIGEST',
] as const;
export const ALL_ATTACHMENT_TYPES = [...ATTACHMENT_KINDS, ...REPORT_DOCUMENT_TYPES] as const;
export type AttachmentType = (typeof ALL_ATTACHMENT_TYPES)[number];
export const ATTACHMENT_STATUSES = ['UPLOADED', 'PROCESSED', 'ERROR'] as const;

export const SAMPLE_STATUSES = ['ON_HOLD', 'PROCEED', 'CANCELLED'] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];

export const BILLING_CASE_STATUSES = [
  'NOT_SUBMITTED',
  'READY_TO_SUBMIT',
  'QUEUED_FOR_SUBMISSION',
  'SUBMITTED_TO_XIFIN',
  'ACCEPTED_BY_XIFIN',
  'PARTIALLY_ACCEPTED',
  'REJECTED_BY_XIFIN',
  'DUPLICATE_ACCESSION',
  'PAYOR_SYSTEM_DOWN',
  'UPDATE_NOT_ALLOWED',
  'ON_HOLD_EXTERNAL',
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
  'RETRY_FAILED',
  'CANCELLED',
  'RETIRED_FROM_BILLING',
  'BILLING_COMPLETE',
  'FIXED_IN_XIFIN',
  'DOC_UPLOAD_SUCCEEDED',
  'DOC_UPLOAD_PARTIAL',
  'DOC_UPLOAD_FAILED',
] as const;
export type BillingCaseStatus = (typeof BILLING_CASE_STATUSES)[number];

export const MESSAGE_TYPES = ['FEED_COMMENT', 'CASE_COMMENT', 'CASE'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const SECTION_STATES = ['complete', 'incomplete', 'inactive'] as const;
