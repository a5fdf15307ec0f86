import {
  canDeleteDraft,
  COMPLETE_TEST_STATUSES,
  requisitionActions,
  type RequisitionActions,
  type TestStatus,
} from '@onco/domain';
import { ordersEn } from './i18n';

/**
 * Pure rules of the orders list and the order summary screens (spec 2 sections 2.2 and 2.3). Every product rule
 * comes from @onco/domain; this file only shapes what the screens show and where they go.
 */

export type OrdersTab = 'DRAFT' | 'SUBMITTED';
export type From = 'home' | 'orders';

/** A row of GET /portal/api/v1/testOrderForms (the stored requisition as the API shows it). */
export interface RequisitionRow {
  id: string;
  testRequisitionId?: string | null;
  status: 'DRAFT' | 'SUBMITTED' | 'INVALID';
  deleted?: boolean;
  clinicalReviewStatus?: string | null;
  patient?: {
    id?: string | null;
    userId?: string | null;
    name?: string | null;
    firstName?: string | null;
    lastName?: string | null;
    mrn?: string | null;
    dateOfBirth?: string | null;
    birthSex?: string | null;
  } | null;
  physician?: { id?: string | null; name?: string | null; userId?: string | null } | null;
  account?: { id?: string | null; name?: string | null } | null;
  hospitalLocation?: {
    id?: string | null;
    name?: string | null;
    address?: {
      street?: string | null;
      city?: string | null;
      state?: string | null;
      postalCode?: string | null;
    } | null;
  } | null;
  tumorSpecimen?: {
    diagnosis?: string | null;
    otherDiagnosis?: string | null;
    icd10Codes?: string | null;
  } | null;
  testOrders?: Array<{
    id: string;
    testOrderId?: string | null;
    testType: string;
    orderType?: string | null;
    status: string;
    dueOn?: string | null;
  }>;
  sampleStatuses?: string[];
  /** the billing review (spec 2 section 6: edited with CAN_EDIT_BILLING) */
  billingReview?: { status?: string | null } | null;
  /** the primary form this one was merged into (a TRF merge; status INVALID) */
  mergedInto?: { id: string; testRequisitionId: string | null } | null;
  attachments?: Array<{ id: string; name?: string | null; type?: string | null; createdOn?: string | null }>;
  parentTestOrderForm?: { id?: string | null; testRequisitionId?: string | null } | null;
  createdOn?: string | null;
  updatedOn?: string | null;
  /** the actions this user may take on the row, as the server decided them (list and GET by id carry them) */
  actions?: RequisitionActions;
}

/** Navigation state a screen may pass to /orders (home's clinical review counters). */
export interface OrdersNavState {
  reviewStatus?: string | null;
}

/** Spec 2 section 2.2: Submitted when a review status came in navigation state, otherwise Draft. */
export function initialTab(state: unknown): OrdersTab {
  const s = (state ?? {}) as OrdersNavState;
  return s.reviewStatus ? 'SUBMITTED' : 'DRAFT';
}

/**
 * The filter the tab, the 'Deleted included' toggle and a review status passed in add to the list's own
 * filters. Submitted lists every non-draft requisition. Deleted rows only with the toggle (the server also
 * checks CAN_DELETE_TRF): `deleted: in(true,false)` asks for deleted and live rows together.
 */
export function ordersBaseFilter(
  tab: OrdersTab,
  opts: { includeDeleted?: boolean; reviewStatus?: string | null } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { status: tab === 'DRAFT' ? ['DRAFT'] : ['SUBMITTED', 'INVALID'] };
  if (tab === 'SUBMITTED' && opts.includeDeleted) out.deleted = 'in(true,false)';
  if (tab === 'SUBMITTED' && opts.reviewStatus) out.clinicalReviewStatus = [opts.reviewStatus];
  return out;
}

/** Where a row opens: a draft in the wizard, anything else in its summary (opening on the Patient tab). */
export function rowTarget(row: Pick<RequisitionRow, 'id' | 'status'>): string {
  const id = encodeURIComponent(row.id);
  return row.status === 'DRAFT' ? `/order/${id}` : `/order/${id}/summary/patient`;
}

/** The CSV download: CAN_DOWNLOAD_CSV, never on the Draft tab. */
export function csvAllowed(tab: OrdersTab, permissions: readonly string[]): boolean {
  return tab === 'SUBMITTED' && permissions.includes('CAN_DOWNLOAD_CSV');
}

/** The Delete column and the 'Deleted included' toggle: Submitted tab with CAN_DELETE_TRF. */
export function deleteColumnShown(tab: OrdersTab, permissions: readonly string[]): boolean {
  if (tab === 'DRAFT') return canDeleteDraft(permissions);
  return permissions.includes('CAN_DELETE_TRF');
}

/** The Submitted tab's "Deleted included" toggle (spec 2 section 2.2: with CAN_DELETE_TRF). */
export function deletedToggleShown(tab: OrdersTab, permissions: readonly string[]): boolean {
  return tab === 'SUBMITTED' && permissions.includes('CAN_DELETE_TRF');
}

/** 'Start a New Order' is disabled for observers. */
export function canStartOrder(role: string | null | undefined): boolean {
  return role !== 'ROLE_OBSERVER';
}

/** Today as 'YYYY-MM-DD' in local time (the rule context's clock). */
export function todayIso(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/**
 * The actions of a list row: the server's (each row carries them, with the subsequent-order configuration the
 * console does not know); for a row without them, the domain's rule (the same one the server applies) without
 * the subsequent order.
 */
export function rowActions(row: RequisitionRow, permissions: readonly string[]): RequisitionActions {
  if (row.actions) return row.actions;
  const first = row.testOrders?.[0];
  return requisitionActions(
    {
      status: row.status,
      deleted: Boolean(row.deleted),
      hasTrfAttachment: (row.attachments ?? []).some((a) => a.type === 'TRF'),
      testStatuses: (row.testOrders ?? []).map((t) => t.status as TestStatus),
      anySampleOnHold: (row.sampleStatuses ?? []).includes('ON_HOLD'),
      testType: (first?.testType ?? null) as never,
      orderType: (first?.orderType ?? null) as never,
      patientNumber: row.patient?.userId ?? null,
      accountId: row.account?.id ?? null,
    },
    {
      today: todayIso(),
      permissions,
      subsequentOrder: {
        testType: '__none__' as never,
        orderType: '__none__' as never,
        excludedAccountId: null,
      },
    },
  );
}

const ENUM_EN = ordersEn.orders.enum as Record<string, string>;

/** An enumeration value as people read it: REPORT_COMPLETE -> 'Report Complete' (known product names kept). */
export function enumLabel(value: string | null | undefined): string {
  if (!value) return '';
  if (ENUM_EN[value]) return ENUM_EN[value];
  return value
    .toLowerCase()
    .split('_')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Diagnosis with its free text: 'Other (Sarcoma)', 'Breast'. */
export function diagnosisText(
  t: { diagnosis?: string | null; otherDiagnosis?: string | null } | null | undefined,
  label: (v: string) => string = enumLabel,
): string {
  if (!t?.diagnosis) return t?.otherDiagnosis ?? '';
  const d = label(t.diagnosis);
  return t.otherDiagnosis ? `${d} (${t.otherDiagnosis})` : d;
}

/** Location name and city: 'Main Clinic, Austin'. */
export function locationText(loc: RequisitionRow['hospitalLocation']): string {
  return [loc?.name, loc?.address?.city].filter(Boolean).join(', ');
}

/** Tests of a requisition: 'NeXT Dx (Test Ordered), NeXT Personal Dx (In Progress)'. */
export function testsText(
  tests: RequisitionRow['testOrders'],
  label: (v: string) => string = enumLabel,
): string {
  return (tests ?? []).map((t) => `${label(t.testType)} (${label(t.status)})`).join(', ');
}

/** The requisition's TRF attachments (the generated PDFs), by name. */
export function trfAttachments(row: Pick<RequisitionRow, 'attachments'>): string[] {
  return (row.attachments ?? []).filter((a) => a.type === 'TRF').map((a) => a.name ?? a.id);
}

/** Patient name: the stored name, else first and last. */
export function patientName(p: RequisitionRow['patient']): string {
  return p?.name ?? [p?.firstName, p?.lastName].filter(Boolean).join(' ');
}

export interface TestProgress {
  ordered: number;
  inProgress: number;
  complete: number;
}

const IN_PROGRESS: readonly string[] = [
  'IN_PROGRESS',
  'TNP_AWAITING_REPLACEMENT',
  'REPLACEMENT_AWAITING',
  'AMENDMENT_AWAITING',
];

/**
 * The summary's progress (Test Ordered, In Progress, Report Complete): tests ordered and not yet started,
 * tests under way (including the awaiting statuses), and tests whose report is complete (the domain's
 * complete statuses). Draft-only (TEST_SELECTED) and cancelled tests are not counted.
 */
export function testProgress(tests: ReadonlyArray<{ status: string }> | null | undefined): TestProgress {
  const out: TestProgress = { ordered: 0, inProgress: 0, complete: 0 };
  for (const t of tests ?? []) {
    if (t.status === 'TEST_ORDERED') out.ordered++;
    else if (IN_PROGRESS.includes(t.status)) out.inProgress++;
    else if ((COMPLETE_TEST_STATUSES as readonly string[]).includes(t.status)) out.complete++;
  }
  return out;
}
