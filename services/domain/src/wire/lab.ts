import type { ClinicalReviewStatus, OrderType, TestStatus, TestType } from '../enums';
import type { IdNameRef, RecordFields, WireDate } from './record';

/**
 * The lab's rows (spec 2 section 3): test orders and samples as the lab service stores them
 * (services/lab/src/models, dates `Date`) and the oms area returns them (the `...Row` types, dates ISO text).
 */

/**
 * What changed in a test: a history entry's `change` (null on older entries: a status change) and a test-status
 * event's (@onco/events takes the list from here).
 */
export const TEST_CHANGES = ['created', 'status', 'report', 'due-date', 'lims-project', 'merged'] as const;
export type TestHistoryChange = (typeof TEST_CHANGES)[number];

/** A test's report file reference. */
export interface TestResultRef {
  id: string | null;
  contentType: string | null;
}

export interface TestHistoryFields<D> {
  status: TestStatus;
  createdOn: D;
  updatedOn?: D | null;
  testResult?: TestResultRef | null;
  /** what this entry records (null on entries written before it existed: a status change) */
  change?: TestHistoryChange | null;
  /** who made the change */
  by?: IdNameRef | null;
  /** the value set by a due-date or LIMS-project change, or the report file name */
  detail?: string | null;
}

/** One uploaded report of a test; amendments add versions, none is ever removed. */
export interface ReportVersionFields<D> {
  version: number;
  fileId: string;
  fileName: string;
  contentType: string;
  size: number;
  amended: boolean;
  tnp: boolean;
  uploadedOn: D;
  uploadedBy: IdNameRef;
}

/** The snapshot of the requisition fields a test order carries (the tests list shows and scopes by them). */
export interface TestOrderFormRef {
  id: string;
  testRequisitionId: string | null;
  account: IdNameRef | null;
  physician: IdNameRef | null;
  hospitalLocation: IdNameRef | null;
  patient: (IdNameRef & { userId: string | null }) | null;
  /** the requisition's clinical review status, as the tests list shows it */
  reviewStatus: ClinicalReviewStatus | null;
  /** the requisition's diagnosis (tumor specimen), for the sample rules and LIMS info; null when not carried */
  diagnosis?: string | null;
  /** the requisition version of the last requisition-changed state applied (null: only the submission) */
  requisitionVersion?: number | null;
}

/** A test order's own fields (its histories and reports apart: their wire shapes differ). */
export interface TestOrderFields<D> extends RecordFields<D> {
  /** human-readable test number */
  testOrderId: string | null;
  testId: string | null;
  testType: TestType;
  orderType: OrderType;
  status: TestStatus;
  /** the due date (a calendar day 'YYYY-MM-DD' on the wire) */
  dueOn: D | null;
  /** days from order to report (shown with VIEW_TESTORDER_DURATION) */
  testDuration: number | null;
  limsProjectId: string | null;
  testResult: (TestResultRef & { path: string | null }) | null;
  report: { path: string | null } | null;
  testOrderForm: TestOrderFormRef;
}

export type TestHistoryRow = TestHistoryFields<WireDate>;
/** A report version on the wire: the stored file's id stays on the server. */
export type ReportVersionRow = Omit<ReportVersionFields<WireDate>, 'fileId'>;

/** A test order as the tests list and GET /oms/api/v1/testOrders/{id} return it (histories newest first). */
export interface TestOrderRow extends TestOrderFields<WireDate> {
  id: string;
  testHistories?: TestHistoryRow[];
  reports?: ReportVersionRow[];
}
