import type { ClinicalReviewStatus, SampleStatus, SpecimenKind } from '../enums';
import type { SampleRequisition, SampleRuleConfig } from '../lab/sample-rules';
import type { SampleWorkflow } from '../lab/sample-workflow';
import type { TestOrderFields } from './lab';
import type { IdNameRef, RecordFields, WireDate } from './record';

/**
 * A physical sample (spec 2 section 3 "Sample") as the lab stores it (services/lab/src/models/sample.ts, dates
 * `Date`) and returns it (`SampleRow`: collectedOn and receivedOn as calendar days, other dates ISO text), and
 * the samples reply of GET /oms/api/v1/testOrderForms/{id}/samples.
 */
export interface SampleFields<D> extends RecordFields<D> {
  type: SpecimenKind;
  status: SampleStatus | null;
  limsId: string | null;
  limsProjectId: string | null;
  limsProjectName: string | null;
  sampleGroupId: string | null;
  receivedOn: D | null;
  collectedOn: D | null;
  specimenType: string | null;
  specimenId: string | null;
  name: string | null;
  /** slide ids separated by spaces */
  accessionId: string | null;
  trackingNumber: string | null;
  sampleSite: string | null;
  doNotExhaust: boolean | null;
  diagnosis: string | null;
  accessioner: string | null;
  releasedOn: D | null;
  workOrderNumber: string | null;
  sequencingProduct: string | null;
  product: string | null;
  containerTypeId: string | null;
  containerLocationValue: string | null;
  workflowAssignId: string | null;
  researcherId: string | null;
  patient: {
    id: string | null;
    firstName: string | null;
    lastName: string | null;
    /** 'YYYY-MM-DD' (no time zone) */
    dateOfBirth: string | null;
  } | null;
  testOrderForm: { id: string | null; testRequisitionId: string | null } | null;
  account: IdNameRef | null;
  /** the requisition's physician at the sample's last write (informative: the scope is checked on the test orders) */
  physician: IdNameRef | null;
  /** set on a copy: the sample it was copied from and that sample's requisition */
  copiedFrom: { sampleId: string | null; testOrderFormId: string | null } | null;
}

/** A sample as the lab returns it (services/lab/src/samples/rules.ts `sampleOut`). */
export interface SampleRow extends SampleFields<WireDate> {
  id: string;
  /**
   * the samples reply's verdict: added to the job of the workflow its requisition assigns, or ignored
   * (lab/sample-workflow.ts); null on a deleted requisition
   */
  workflow?: SampleWorkflow | null;
}

/**
 * A test order of a requisition as the samples reply lists it (a type, not an interface: the lab's reply schema
 * checks it as an open object, which needs the implicit index signature of a type alias).
 */
export type SampleTestOrderRef = { id: string } & Pick<
  TestOrderFields<WireDate>,
  'testOrderId' | 'testType' | 'orderType' | 'status' | 'limsProjectId'
>;

/** What the lab knows of a requisition from its test orders, as the samples reply carries it. */
export interface SamplesRequisitionInfo extends SampleRequisition {
  accountId: string | null;
  accountName: string | null;
  patient: (IdNameRef & { userId: string | null }) | null;
  testOrders: SampleTestOrderRef[];
  diagnosis: string | null;
  clinicalReviewStatus: ClinicalReviewStatus | null;
}

/** GET /oms/api/v1/testOrderForms/{id}/samples: the samples requisition and what the sample rules need. */
export interface SamplesReply {
  id: string;
  testRequisitionId: string | null;
  deleted: boolean;
  requisition: SamplesRequisitionInfo;
  domain: string;
  ruleConfig: SampleRuleConfig & { reviewAccountId: string | null };
  sampleGroupId: string | null;
  tumors: SampleRow[];
  normals: SampleRow[];
  plasmas: SampleRow[];
}
