import type { TestStatus } from '../enums';
import { TEST_STATUSES } from '../enums';

/**
 * Test order rules (spec 2 sections 4, 5 and 6). Used by the lab service, which enforces them, and by the
 * console, which shows them; a rule the console shows but the server does not enforce is a defect.
 */

/** Change Test Status offers every status except TEST_SELECTED (spec 2 section 4). */
export const TEST_STATUS_CHOICES: readonly TestStatus[] = TEST_STATUSES.filter((s) => s !== 'TEST_SELECTED');

/** The statuses that disable themselves: a test in one of them cannot be "changed" to the same status. */
export const SELF_DISABLED_TEST_STATUSES: readonly TestStatus[] = [
  'IN_PROGRESS',
  'TNP_AWAITING_REPLACEMENT',
  'REPLACEMENT_AWAITING',
  'AMENDMENT_AWAITING',
];

/** Statuses that end a test: a report is out, or it was cancelled. */
export const REPORTED_TEST_STATUSES: readonly TestStatus[] = [
  'REPORT_COMPLETE',
  'TNP_REPORT_COMPLETE',
  'REPORT_AMENDED',
];

/**
 * The status options of the Update Status dialog for a selection: every choice, the first selected test's own
 * status disabled when it is one of the self-disabling statuses (spec 2 section 4).
 */
export function testStatusOptions(firstSelected: TestStatus | null | undefined) {
  return TEST_STATUS_CHOICES.map((status) => ({
    status,
    disabled: !!firstSelected && firstSelected === status && SELF_DISABLED_TEST_STATUSES.includes(status),
  }));
}

export const TEST_RULE_MESSAGES = {
  statusNotOffered: 'TEST_SELECTED cannot be chosen as a test status.',
  sameStatus: (status: string) => `The test is already ${status}; choose another status.`,
  noTests: 'Select at least one test.',
  cancelledReport: 'A report cannot be uploaded for a cancelled test.',
  orderedReport: 'A report cannot be uploaded before the test is in progress (status TEST_ORDERED).',
  dueDateTooLate: (days: number) => `The due date can be at most ${days} days from today.`,
  dueDateInvalid: 'Enter a valid date (MM/DD/YYYY).',
  limsRequired: 'LIMS Project # is required.',
  notSubmitted: 'Only tests of a submitted requisition can be changed.',
} as const;

/**
 * Why `status` cannot be set on a test now in `current`, or null when it can. Server-side rule of the Update
 * Status action: TEST_SELECTED is never offered; a self-disabling status cannot be set again (decision: the
 * spec disables it for the first selected test; the server applies it to each test of the selection, so
 * a repeated click never writes a history entry that changes nothing).
 */
export function testStatusChangeError(current: TestStatus, status: TestStatus): string | null {
  if (status === 'TEST_SELECTED') return TEST_RULE_MESSAGES.statusNotOffered;
  if (current === status && SELF_DISABLED_TEST_STATUSES.includes(status))
    return TEST_RULE_MESSAGES.sameStatus(status);
  return null;
}

/** Report upload sets the status: amended → REPORT_AMENDED; TNP → TNP_REPORT_COMPLETE; else REPORT_COMPLETE. */
export function reportStatus(flags: { amended?: boolean; tnp?: boolean }): TestStatus {
  if (flags.amended) return 'REPORT_AMENDED';
  if (flags.tnp) return 'TNP_REPORT_COMPLETE';
  return 'REPORT_COMPLETE';
}

/**
 * Why a report cannot be uploaded for a test in `current`, or null. The order summary needs a test not
 * cancelled; the Tests page needs one whose status is not TEST_ORDERED (spec 2 section 6). The server
 * applies both (decision: a report before the lab has started, or for a cancelled test, is a mistake).
 */
export function reportUploadError(current: TestStatus): string | null {
  if (current === 'CANCELLED') return TEST_RULE_MESSAGES.cancelledReport;
  if (current === 'TEST_ORDERED' || current === 'TEST_SELECTED') return TEST_RULE_MESSAGES.orderedReport;
  return null;
}

/** Due dates: at most 30 days ahead (spec 2 sections 5 and 9). */
export const DUE_DATE_MAX_DAYS = 30;

/**
 * Why `dueOn` (a calendar day `YYYY-MM-DD`, or null for "Set Due Date to None") is refused, or null.
 * `today` is the calendar day of the caller's clock. Past days are allowed (decision: the lab may record a
 * due date already missed; the spec bounds only the future).
 */
export function dueDateError(dueOn: string | null, today: string): string | null {
  if (dueOn === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(dueOn) || Number.isNaN(Date.parse(`${dueOn}T00:00:00Z`)))
    return TEST_RULE_MESSAGES.dueDateInvalid;
  const days = (Date.parse(`${dueOn}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000;
  return days > DUE_DATE_MAX_DAYS ? TEST_RULE_MESSAGES.dueDateTooLate(DUE_DATE_MAX_DAYS) : null;
}

/** Which actions of the order summary's Tests tab apply to the selected tests (spec 2 section 6). */
export function testActions(
  selected: readonly TestStatus[],
  ctx: { permissions: readonly string[]; draft?: boolean },
) {
  const can = (p: string) => ctx.permissions.includes(p);
  const open = (s: TestStatus) => s !== 'CANCELLED' && !REPORTED_TEST_STATUSES.includes(s);
  return {
    updateStatus: can('VIEW_TESTORDER_ACTIONS') && !ctx.draft && selected.length > 0 && selected.some(open),
    uploadReport:
      can('VIEW_TESTORDER_ACTIONS') && selected.length === 1 && reportUploadError(selected[0]) === null,
    updateDueDate: can('CAN_UPDATE_DUE_DATE') && selected.length === 1,
    updateLimsProjectId: can('VIEW_TESTORDER_ACTIONS') && selected.length === 1,
  };
}

/** The 9 steps of the test timeline, in order, with their labels (spec 2 section 4). */
export const TIMELINE_STEPS: readonly TestStatus[] = [
  'TEST_ORDERED',
  'IN_PROGRESS',
  'TNP_AWAITING_REPLACEMENT',
  'REPLACEMENT_AWAITING',
  'REPORT_COMPLETE',
  'AMENDMENT_AWAITING',
  'REPORT_AMENDED',
  'CANCELLED',
  'TNP_REPORT_COMPLETE',
];

/** Steps shown only when complete. */
export const EXCEPTION_STEPS: readonly TestStatus[] = [
  'TNP_AWAITING_REPLACEMENT',
  'REPLACEMENT_AWAITING',
  'AMENDMENT_AWAITING',
  'REPORT_AMENDED',
  'CANCELLED',
  'TNP_REPORT_COMPLETE',
];

/**
 * Steps hidden by the latest status. The spec gives IN_PROGRESS and the two awaiting statuses; the rest is
 * "not shown", decided here so the timeline never offers a step the test can no longer reach:
 * - TEST_ORDERED: as IN_PROGRESS (nothing exceptional has happened yet);
 * - REPORT_COMPLETE / AMENDMENT_AWAITING / REPORT_AMENDED: the TNP and replacement paths and Canceled;
 * - TNP_REPORT_COMPLETE: the normal report path (report complete, amendment, amended) and Canceled;
 * - CANCELLED: every step not reached (in progress and the report steps).
 * Hiding only applies to steps that are not complete: a step that happened is always shown.
 */
const HIDDEN_AFTER: Partial<Record<TestStatus, readonly TestStatus[]>> = {
  TEST_ORDERED: ['TNP_AWAITING_REPLACEMENT', 'REPLACEMENT_AWAITING', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  IN_PROGRESS: ['TNP_AWAITING_REPLACEMENT', 'REPLACEMENT_AWAITING', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  TNP_AWAITING_REPLACEMENT: ['REPORT_COMPLETE', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  REPLACEMENT_AWAITING: ['REPORT_COMPLETE', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  REPORT_COMPLETE: ['TNP_AWAITING_REPLACEMENT', 'REPLACEMENT_AWAITING', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  AMENDMENT_AWAITING: [
    'TNP_AWAITING_REPLACEMENT',
    'REPLACEMENT_AWAITING',
    'TNP_REPORT_COMPLETE',
    'CANCELLED',
  ],
  REPORT_AMENDED: ['TNP_AWAITING_REPLACEMENT', 'REPLACEMENT_AWAITING', 'TNP_REPORT_COMPLETE', 'CANCELLED'],
  TNP_REPORT_COMPLETE: ['REPORT_COMPLETE', 'AMENDMENT_AWAITING', 'REPORT_AMENDED', 'CANCELLED'],
  CANCELLED: [
    'IN_PROGRESS',
    'REPORT_COMPLETE',
    'AMENDMENT_AWAITING',
    'REPORT_AMENDED',
    'TNP_REPORT_COMPLETE',
  ],
};

export interface TimelineHistory {
  status: TestStatus;
  createdOn?: Date | string | null;
  updatedOn?: Date | string | null;
}

export interface TimelineStep {
  status: TestStatus;
  complete: boolean;
  /** when the step was last reached (its latest entry's updatedOn), null when not complete */
  on: string | null;
  /** the step of the test's latest history entry */
  current: boolean;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const time = (h: TimelineHistory) => new Date(h.updatedOn ?? h.createdOn ?? 0).getTime();

/**
 * The visible timeline of a test from its history: a step is complete when its latest entry has an updatedOn;
 * exception steps show only when complete; the latest status hides the steps of HIDDEN_AFTER that are not
 * complete.
 */
export function testTimeline(histories: readonly TimelineHistory[]): TimelineStep[] {
  const sorted = [...histories].sort((a, b) => time(a) - time(b));
  const latest = sorted.at(-1)?.status ?? null;
  const hidden = (latest && HIDDEN_AFTER[latest]) || [];
  const steps: TimelineStep[] = [];
  for (const status of TIMELINE_STEPS) {
    const last = [...sorted].reverse().find((h) => h.status === status);
    const complete = !!last?.updatedOn;
    if (!complete && EXCEPTION_STEPS.includes(status)) continue;
    if (!complete && hidden.includes(status)) continue;
    steps.push({ status, complete, on: complete ? iso(last!.updatedOn) : null, current: status === latest });
  }
  return steps;
}
