import type { Connection, Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  BILLING_PREFERENCES,
  BILLING_REVIEW_STATUSES,
  BILLING_TYPES,
  BIOPSY_SITES,
  BIRTH_SEXES,
  BLOOD_COLLECTION_MODES,
  CLINICAL_REVIEW_STATUSES,
  DIAGNOSES,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  ORDER_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  REQUISITION_STATUSES,
  SAMPLE_STATUSES,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TEST_STATUSES,
  TEST_TYPES,
  TISSUE_OBTAIN_METHODS,
  TUMOR_SPECIMEN_TYPES,
  ALL_ATTACHMENT_TYPES,
  type BillingType,
  type ClinicalReviewStatus,
  type OrderType,
  type RequisitionStatus,
  type SampleStatus,
  type TestStatus,
  type TestType,
} from '@onco/domain';
import type { OutboxEntry } from '@onco/events';
import { bool, calendarDate, idName, outboxField, str, sub } from './common';

/**
 * The requisition (test order form, TRF): spec 1 section 3 "Requisition" and spec 2 section 3
 * "Test order form". Collection `test_order_forms`. Blocks the wizard edits are embedded objects holding
 * the picked record's id plus the fields the form shows (a snapshot taken when the block is saved).
 */

export interface IdName {
  id: string | null;
  name: string | null;
}
export interface Address {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
}
export interface PatientSnapshot {
  id: string | null;
  userId?: string | null;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  name?: string | null;
  race?: string | null;
  ethnicity?: string | null;
  address?: Address | null;
  phone?: string | null;
  fax?: string | null;
  email?: string | null;
  mrn?: string | null;
  dateOfBirth?: string | null;
  birthSex?: string | null;
  trialName?: string | null;
  studyPatientId?: string | null;
  diagnosis?: string | null;
}
export interface ProviderSnapshot {
  id: string | null;
  userId?: string | null;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  name?: string | null;
  phone?: string | null;
  email?: string | null;
  fax?: string | null;
}
export interface LocationSnapshot {
  id: string | null;
  name?: string | null;
  hospitalLocationId?: string | null;
  address?: (Address & { telephone?: string | null; fax?: string | null }) | null;
}
export interface PathologistSnapshot {
  id: string | null;
  name?: string | null;
  npi?: string | null;
  phone?: string | null;
  email?: string | null;
  fax?: string | null;
}
export interface TumorSpecimen {
  diagnosis?: string | null;
  otherDiagnosis?: string | null;
  octDxBreadCrumb?: string | null;
  primaryTumorSite?: string | null;
  /** the spec's {hash} field: ICD-10 codes as one comma-separated string, at most 6 */
  icd10Codes?: string | null;
  reviewDiagnosis?: boolean | null;
  planOrReceivingImmunotherapy?: boolean | null;
  drugName?: string | null;
  dateOfDiagnosis?: string | null;
  diseaseStatus?: string | null;
  currentTherapies?: string[];
  priorTherapies?: string[];
  stage?: string | null;
  otherStage?: string | null;
  specimenBiopsySite?: string | null;
  otherBiopsySite?: string | null;
  specimenRequestType?: string | null;
  ffpeTissueObtainMethod?: string | null;
  specimenId?: string | null;
  collectionDate?: string | null;
  specimenType?: string | null;
  content?: number | null;
  doNotExhaust?: boolean | null;
}
export interface NormalSpecimen {
  specimenType?: string | null;
  collectionMode?: string | null;
  collectionDate?: string | null;
  isPreSurgicalOrPreBiopsySample?: boolean | null;
}
export interface RequisitionBilling {
  id: string;
  billingType: BillingType;
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
  canonicalPolicyNumber?: string | null;
  canonicalGroupNumber?: string | null;
  patientInsuranceId?: string | null;
  archived: boolean;
  createdBy?: string | null;
  createdOn: Date;
  updatedBy?: string | null;
  updatedOn: Date;
  version: number;
}
export interface AttachmentRef {
  id: string;
  name: string;
  type: string;
  size: number;
  contentType: string;
  createdOn: Date;
}
export interface Approval {
  approvedBy: IdName;
  createdOn: Date;
}
export interface TestOrderSummary {
  id: string;
  testOrderId?: string | null;
  testType: TestType;
  orderType: OrderType;
  status: TestStatus;
  dueOn?: string | null;
  statusChangedOn?: Date | null;
}
export interface ReportRef {
  id: string;
  testOrderId?: string | null;
  name?: string | null;
  contentType?: string | null;
  createdOn?: Date | null;
}

export interface RequisitionDoc {
  _id: string;
  testRequisitionId: string | null;
  status: RequisitionStatus;
  clinicalReviewStatus: ClinicalReviewStatus | null;
  isNYState: boolean | null;
  patient: PatientSnapshot | null;
  physician: ProviderSnapshot | null;
  account: (IdName & { accountId?: string | null }) | null;
  hospitalLocation: LocationSnapshot | null;
  pathologist: PathologistSnapshot | null;
  pathologistLocation: LocationSnapshot | null;
  additionalPhysician: ProviderSnapshot | null;
  additionalPhysicianLocation: LocationSnapshot | null;
  orderInformation: { nextDx: boolean; nextPersonalDx: boolean; orderType: OrderType | null };
  testOrders: TestOrderSummary[];
  parentTestOrderForm: {
    id: string | null;
    testRequisitionId: string | null;
    limsProjectIds: string[];
  } | null;
  limsProjectIds: string[];
  tumorSpecimen: TumorSpecimen | null;
  normalSpecimen: NormalSpecimen | null;
  billings: RequisitionBilling[];
  attachments: AttachmentRef[];
  approvals: Approval[];
  sampleStatuses: SampleStatus[];
  /** the order's samples as the sample projection keeps them (projections/sample-status.ts) */
  samples?: Array<{ id: string; type: string; status: SampleStatus | null; changedOn: Date }>;
  /** bumped by every sample projection step (sampleStatuses is written conditional on it) */
  samplesVersion?: number;
  consent: boolean | null;
  billingReview: { status: string | null } | null;
  reports: ReportRef[];
  comment: string | null;
  /** the primary requisition this one was merged into (a TRF merge; status INVALID), null otherwise */
  mergedInto?: { id: string; testRequisitionId: string | null } | null;
  kitId: string | null;
  trfTemplate: { id: string | null } | null;
  sfdcCaseId: string | null;
  outbox: OutboxEntry[];
  createdOn: Date;
  createdBy: string | null;
  updatedOn: Date;
  updatedBy: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
}

const address = () => sub({ street: str, city: str, state: str, postalCode: str, country: str });

const patientSchema = sub({
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

const providerSchema = () =>
  sub({
    id: str,
    userId: str, // the NPI number
    firstName: str,
    middleName: str,
    lastName: str,
    name: str,
    phone: str,
    email: str,
    fax: str,
  });

const locationSchema = () =>
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

const pathologistSchema = sub({ id: str, name: str, npi: str, phone: str, email: str, fax: str });

const tumorSpecimenSchema = sub({
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

const normalSpecimenSchema = sub({
  specimenType: { type: String, enum: NORMAL_SPECIMEN_TYPES, default: null },
  /** the spec also calls it bloodCollectionMode; cleared when specimenType is not BLOOD */
  collectionMode: { type: String, enum: BLOOD_COLLECTION_MODES, default: null },
  collectionDate: calendarDate,
  isPreSurgicalOrPreBiopsySample: bool,
});

const billingSchema = sub({
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

const attachmentRefSchema = sub({
  id: { type: String, required: true },
  name: { type: String, required: true },
  type: { type: String, enum: ALL_ATTACHMENT_TYPES, required: true },
  size: { type: Number, default: 0 },
  contentType: { type: String, default: 'application/octet-stream' },
  createdOn: { type: Date, default: () => new Date() },
});

const approvalSchema = sub({
  approvedBy: { type: idName(), required: true },
  createdOn: { type: Date, default: () => new Date() },
});

const testOrderSummarySchema = sub({
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

const reportRefSchema = sub({
  id: { type: String, required: true },
  testOrderId: str,
  name: str,
  contentType: str,
  createdOn: { type: Date, default: null },
});

export const requisitionSchema = auditedSchema(
  {
    /** human-readable number, allocated from `counters` on first submit; null on drafts */
    testRequisitionId: str,
    status: { type: String, enum: REQUISITION_STATUSES, default: 'DRAFT', required: true },
    clinicalReviewStatus: { type: String, enum: CLINICAL_REVIEW_STATUSES, default: null },
    isNYState: bool,
    patient: { type: patientSchema, default: null },
    physician: { type: providerSchema(), default: null },
    account: { type: sub({ id: str, accountId: str, name: str }), default: null },
    hospitalLocation: { type: locationSchema(), default: null },
    pathologist: { type: pathologistSchema, default: null },
    pathologistLocation: { type: locationSchema(), default: null },
    additionalPhysician: { type: providerSchema(), default: null },
    additionalPhysicianLocation: { type: locationSchema(), default: null },
    orderInformation: {
      type: sub({
        nextDx: { type: Boolean, default: false },
        nextPersonalDx: { type: Boolean, default: false },
        orderType: { type: String, enum: ORDER_TYPES, default: null },
      }),
      default: () => ({ nextDx: false, nextPersonalDx: false, orderType: null }),
    },
    /** summary of the lab's test orders (the lab service owns test_orders; this copy is kept by events) */
    testOrders: { type: [testOrderSummarySchema], default: [] },
    parentTestOrderForm: {
      type: sub({ id: str, testRequisitionId: str, limsProjectIds: { type: [String], default: [] } }),
      default: null,
    },
    limsProjectIds: { type: [String], default: [] },
    tumorSpecimen: { type: tumorSpecimenSchema, default: null },
    normalSpecimen: { type: normalSpecimenSchema, default: null },
    billings: { type: [billingSchema], default: [] },
    attachments: { type: [attachmentRefSchema], default: [] },
    approvals: { type: [approvalSchema], default: [] },
    /** the distinct statuses of the order's samples (kept by sample events); ON_HOLD blocks deletion */
    sampleStatuses: { type: [{ type: String, enum: SAMPLE_STATUSES }], default: [] },
    samples: {
      type: [
        sub({
          id: { type: String, required: true },
          type: str,
          status: { type: String, enum: [...SAMPLE_STATUSES, null], default: null },
          changedOn: { type: Date, default: null },
        }),
      ],
      default: [],
    },
    samplesVersion: { type: Number, default: 0 },
    /** the patient's consent was obtained (consent step) */
    consent: bool,
    billingReview: {
      type: sub({ status: { type: String, enum: BILLING_REVIEW_STATUSES, default: null } }),
      default: null,
    },
    reports: { type: [reportRefSchema], default: [] },
    comment: str,
    mergedInto: { type: sub({ id: str, testRequisitionId: str }), default: null },
    kitId: str,
    trfTemplate: { type: sub({ id: str }), default: null },
    sfdcCaseId: str,
    outbox: outboxField(),
  },
  { collection: 'test_order_forms' },
);

/*
 * Indexes: each names the query it serves. The orders list (GET /testOrderForms, list-exec.ts) always asks for
 * a status tab (Draft: status DRAFT; Submitted: status in SUBMITTED, INVALID), not deleted, newest first
 * (updatedOn DESC, _id DESC), and, for users who do not see every account, within the data scope
 * `$or [account.id in, physician.id in, createdBy]` (resource.ts). A facet value the user picks adds its filter.
 * On MongoDB the compound keys give the page in index order (each `$or` branch merged by sort); DocumentDB 0.106
 * (the local store) searches every key of a compound index on its own and sorts the matched rows, so there they
 * narrow the rows the page, count and facets read. The search (`q`, an unanchored case-insensitive substring)
 * cannot use an index: it is applied to the rows of the tab.
 */
// orders list, both tabs, newest first, for users who see every account (lab and billing staff, admins);
// the home dashboard's clinical review counters (status SUBMITTED)
requisitionSchema.index({ status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `account.id in` branch (and the accountId / accountIds filters)
requisitionSchema.index({ 'account.id': 1, status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `physician.id in` branch (and the physicianId / physicianIds filters)
requisitionSchema.index({ 'physician.id': 1, status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `createdBy` branch (a draft started on the patient step has no
// account yet); without it the scope's `$or` could not be answered from indexes at all
requisitionSchema.index({ createdBy: 1, status: 1, updatedOn: -1, _id: -1 });
// orders list: the patientId filter (a patient's requisitions)
requisitionSchema.index({ 'patient.id': 1 });
// the list's newest-first pages once the list is large (its counts kept): read in index order, on the local store
// through DocumentDB's extended RUM (built by the ordered-index login: @onco/platform ordered-indexes.ts)
declareOrderedIndex('test_order_forms', { updatedOn: -1, _id: -1 });
// orders list: the testRequisitionId filter (a TRF number). Not unique: drafts have none (null); the number is
// unique by construction (allocated from the `counters` sequence on first submit)
requisitionSchema.index({ testRequisitionId: 1 });
// orders list: a facet's value picked (its filter narrows the rows the page, count and other facets read)
requisitionSchema.index({ 'testOrders.status': 1 }); // testStatus (test_status_facet)
requisitionSchema.index({ clinicalReviewStatus: 1 }); // clinicalReviewStatus, reviewStatus (clinical_review_facet)
requisitionSchema.index({ 'billingReview.status': 1 }); // billingReviewStatus (billing_review_facet)
requisitionSchema.index({ 'physician.name': 1 }); // physicianName (physician_facet)
requisitionSchema.index({ 'account.name': 1 }); // accountName (account_facet)
requisitionSchema.index({ 'hospitalLocation.name': 1 }); // locationName (hospital_location_facet)
requisitionSchema.index({ 'tumorSpecimen.diagnosis': 1 }); // diagnosis (diagnosis_facet)
requisitionSchema.index({ 'testOrders.testType': 1 }); // testType (test_type_facet)
requisitionSchema.index({ sampleStatuses: 1 }); // sampleStatus (sample_status_facet)
requisitionSchema.index({ 'testOrders.orderType': 1 }); // orderType (order_type_facet)

export function requisitionModel(conn: Connection): Model<RequisitionDoc> {
  return (
    (conn.models.Requisition as Model<RequisitionDoc>) ??
    conn.model<RequisitionDoc>('Requisition', requisitionSchema)
  );
}
