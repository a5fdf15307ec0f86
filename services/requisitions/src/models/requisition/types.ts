import type {
  BillingEntryForm,
  BillingType,
  ClinicalReviewStatus,
  DeliveryMethod,
  IdNameRef,
  LocationAddress,
  OrderType,
  PostalAddress,
  RecordFields,
  RequisitionStatus,
  SampleStatus,
  TestStatus,
  TestType,
} from '@onco/domain';
import type { OutboxEntry } from '@onco/events';

/**
 * The requisition document's shapes (the schema is ../requisition.ts): spec 1 section 3 "Requisition" and
 * spec 2 section 3 "Test order form". Blocks the wizard edits are embedded objects holding the picked record's
 * id plus the fields the form shows (a snapshot taken when the block is saved).
 */

export type IdName = IdNameRef;
export type Address = PostalAddress;
/** The picked person's id, number (PAT #, provider #) and name parts: patients and providers alike. */
export interface PersonSnapshot {
  id: string | null;
  userId?: string | null;
  firstName?: string | null;
  middleName?: string | null;
  lastName?: string | null;
  name?: string | null;
}
export interface PatientSnapshot extends PersonSnapshot {
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
export interface ProviderSnapshot extends PersonSnapshot {
  phone?: string | null;
  email?: string | null;
  fax?: string | null;
}
/** The ordering provider: how the report is delivered to them (docs/decisions.md "Report delivery method"). */
export interface OrderingProviderSnapshot extends ProviderSnapshot {
  deliveryMethod?: DeliveryMethod | null;
}
export interface LocationSnapshot {
  id: string | null;
  name?: string | null;
  hospitalLocationId?: string | null;
  address?: LocationAddress | null;
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
/** A billing of the requisition: the billing entry's fields (@onco/domain's BillingEntryForm), typed. */
export interface RequisitionBilling extends Omit<BillingEntryForm, 'billingType'> {
  id: string;
  billingType: BillingType;
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

export interface RequisitionDoc extends RecordFields<Date> {
  _id: string;
  testRequisitionId: string | null;
  status: RequisitionStatus;
  clinicalReviewStatus: ClinicalReviewStatus | null;
  isNYState: boolean | null;
  patient: PatientSnapshot | null;
  physician: OrderingProviderSnapshot | null;
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
  financialAssistance?: {
    outcome: string | null;
    decidedOn: Date | null;
    decidedBy: { id: string | null; name: string | null } | null;
  } | null;
  reports: ReportRef[];
  comment: string | null;
  /** the primary requisition this one was merged into (a TRF merge; status INVALID), null otherwise */
  mergedInto?: { id: string; testRequisitionId: string | null } | null;
  kitId: string | null;
  trfTemplate: { id: string | null } | null;
  sfdcCaseId: string | null;
  outbox: OutboxEntry[];
}
