import { createdOnBetween, type DayRange } from '../../components/dayRange';
import {
  BILLING_ENTRY_LABELS,
  BILLING_INSURANCE_FIELDS,
  checkBillingEntry,
  formatDisplayDate,
  hasInsuranceFields,
  isDulPatientNumber,
  type BillingEntryForm,
} from '@onco/domain';

/**
 * Pure rules of the patients screens (spec 2 sections 2.6, 2.7, 5, 9): what the lists send and how rows and
 * cards read. The product rules (which action a selection allows, the patient number rule, the billing entry
 * check) come from @onco/domain.
 */

export type CreatedRange = DayRange;

/** The Created range as the list's filter (`between(start, end)` on createdOn, epoch milliseconds). */
export function patientsBaseFilter(range: CreatedRange): Record<string, unknown> {
  return createdOnBetween(range);
}

/** "street, city, state zip" without empty parts. */
export function addressText(
  a:
    | { street?: string | null; city?: string | null; state?: string | null; postalCode?: string | null }
    | null
    | undefined,
): string {
  if (!a) return '';
  const stateZip = [a.state, a.postalCode].filter(Boolean).join(' ');
  return [a.street, a.city, stateZip].filter(Boolean).join(', ');
}

/** A calendar date stored YYYY-MM-DD as MM/DD/YYYY (anything else as given). */
export const displayDay = (v: string | null | undefined) => (v ? formatDisplayDate(v) : '');

/** The Test History's query: SUBMITTED forms of the patient (spec 2 section 7), 10 a page, newest update first. */
export const testHistoryFilter = (patientId: string) => ({ patientId, status: 'SUBMITTED' });

/** The newest report of a test among the requisition's reports, or null (the Report column's View link). */
export function reportOf<R extends { testOrderId?: string | null; createdOn?: string | Date | null }>(
  testId: string,
  reports: readonly R[] | null | undefined,
): R | null {
  const mine = (reports ?? []).filter((r) => r.testOrderId === testId);
  if (!mine.length) return null;
  return mine.reduce((a, b) => (new Date(b.createdOn ?? 0) > new Date(a.createdOn ?? 0) ? b : a));
}

/** Report statuses whose test has a report to show even when the requisition's report list lags behind. */
const REPORTED = ['REPORT_COMPLETE', 'TNP_REPORT_COMPLETE', 'REPORT_AMENDED'];
export const hasReport = (status: string | null | undefined, report: unknown) =>
  Boolean(report) || REPORTED.includes(status ?? '');

/** The "Add or Edit Billing Information" form as typed: every field a string; dates MM/DD/YYYY. */
export type BillingDraft = Record<keyof BillingEntryForm, string>;

const DRAFT_FIELDS: Array<keyof BillingEntryForm> = [
  'billingType',
  'preference',
  ...BILLING_INSURANCE_FIELDS,
  'facilityTypeName',
  'otherTypeName',
];

/** A new entry (type INSURANCE, relationship SELF: spec 2 section 9) or the entry being edited. */
export function billingDraft(entry?: BillingEntryForm | null): BillingDraft {
  const d = {} as BillingDraft;
  for (const f of DRAFT_FIELDS) d[f] = String(entry?.[f] ?? '');
  if (!entry) {
    d.billingType = 'INSURANCE';
    d.relationshipToPatient = 'SELF';
  }
  d.insuredDob = displayDay(d.insuredDob || null);
  d.dischargeDate = displayDay(d.dischargeDate || null);
  return d;
}

/** The fields the dialog shows for the chosen billing type. */
export function billingDraftFields(d: BillingDraft): Array<keyof BillingEntryForm> {
  const out: Array<keyof BillingEntryForm> = ['billingType', 'preference'];
  if (hasInsuranceFields(d.billingType)) {
    out.push(
      ...BILLING_INSURANCE_FIELDS.filter(
        (f) =>
          (f !== 'patientStatus' || d.billingType !== 'INSURANCE') &&
          (f !== 'dischargeDate' || d.patientStatus === 'INPATIENT_DISCHARGED'),
      ),
    );
  }
  if (d.billingType === 'FACILITY') out.push('facilityTypeName');
  if (d.billingType === 'OTHER') out.push('otherTypeName');
  return out;
}

/** Live validation (spec 2 section 5 "Validation is live"): the domain's check, errors by field. */
export function billingDraftErrors(d: BillingDraft, today: Date): Record<string, string> {
  const r = checkBillingEntry(d, today);
  return 'errors' in r ? r.errors : {};
}

/** What is sent: empty fields as null. */
export function billingBody(d: BillingDraft): BillingEntryForm {
  const out: BillingEntryForm = {};
  for (const f of DRAFT_FIELDS) out[f] = d[f].trim() === '' ? null : d[f].trim();
  return out;
}

export const billingLabel = (f: string) => BILLING_ENTRY_LABELS[f] ?? f;

/** The card's title line: the insurance (or the billing type) and the policy. */
export function billingCardTitle(e: BillingEntryForm, typeLabel: (v: string) => string): string {
  if (hasInsuranceFields(e.billingType)) return e.insuranceProvider ?? typeLabel(e.billingType ?? '');
  return typeLabel(e.billingType ?? '');
}

/** Typing in the payor box: a picked payor fills the payor id; free text clears it (spec 2 section 5). */
export function payorTyped(
  d: BillingDraft,
  text: string,
  picked?: { name: string; payorId: string },
): BillingDraft {
  return picked
    ? { ...d, insuranceProvider: picked.name, payorId: picked.payorId }
    : { ...d, insuranceProvider: text, payorId: '' };
}

// ---- Merge Patients (spec 2 sections 2.6, 5 "Merge patients", 6 "Patients") ----

/** The primary search's debounce and size (spec 2 section 5). */
export const MERGE_SEARCH_DEBOUNCE_MS = 400;
export const MERGE_SEARCH_SIZE = 20;
/** How often the dialog and the patient page ask for a running merge's (or undo's) progress. */
export const MERGE_POLL_MS = 1000;

export interface MergeCandidate {
  id: string;
  userId?: string | null;
  canEdit?: boolean | null;
}

/**
 * Why the selection cannot be merged (the duplicates are the selected rows: at least one, each with canEdit, none
 * with a DUL number), or null. The menu entry is disabled with this reason as its hint.
 */
export function mergeSelectionProblem(
  selected: readonly MergeCandidate[],
): 'none' | 'canEdit' | 'dul' | null {
  if (!selected.length) return 'none';
  if (selected.some((p) => p.canEdit !== true)) return 'canEdit';
  if (selected.some((p) => isDulPatientNumber(p.userId))) return 'dul';
  return null;
}

/** Whether a search result may be the primary: not one of the duplicates, editable, not a DUL number. */
export function primaryProblem(
  p: MergeCandidate,
  duplicateIds: readonly string[],
): 'duplicate' | 'canEdit' | 'dul' | null {
  if (duplicateIds.includes(p.id)) return 'duplicate';
  if (p.canEdit !== true) return 'canEdit';
  if (isDulPatientNumber(p.userId)) return 'dul';
  return null;
}

/** The primary search's list filter: q (the server searches from 3 characters) and the duplicates excluded. */
export function primarySearchFilter(q: string, duplicateIds: readonly string[]): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  const text = q.trim();
  if (text) f.q = text;
  if (duplicateIds.length) f.id = `!in(${duplicateIds.join(',')})`;
  return f;
}

/** The search's results without the duplicates (in case the server ignored the filter) and at most 20. */
export function primaryResults<T extends MergeCandidate>(
  rows: readonly T[],
  duplicateIds: readonly string[],
): T[] {
  return rows.filter((r) => !duplicateIds.includes(r.id)).slice(0, MERGE_SEARCH_SIZE);
}

export interface MergeProgressLike {
  status: string;
  total: number;
  moved: number;
}

/** Whether a merge (or its undo) still runs. */
export const mergeRunning = (m: { status: string } | null | undefined) =>
  m?.status === 'RUNNING' || m?.status === 'UNDOING';

/**
 * The progress bar's integer percent. A merge: moved of total. An undo: the requisitions no longer on the primary
 * (moved counts those still there). Finished runs are 100; a running one never shows 100 before the server says
 * DONE or UNDONE; nothing to move reads 0 while running.
 */
export function mergePercent(m: MergeProgressLike | null | undefined): number {
  if (!m) return 0;
  if (m.status === 'DONE' || m.status === 'UNDONE') return 100;
  const total = Math.max(0, m.total || 0);
  if (total === 0) return 0;
  const moved = Math.min(Math.max(0, m.moved || 0), total);
  const done = m.status === 'UNDOING' ? total - moved : moved;
  return Math.min(99, Math.floor((done * 100) / total));
}

/** How many requisitions the bar stands for: moved so far (merge) or moved back so far (undo). */
export function mergeProgressCount(m: MergeProgressLike): { done: number; total: number } {
  const total = Math.max(0, m.total || 0);
  const moved = Math.min(Math.max(0, m.moved || 0), total);
  if (m.status === 'UNDONE') return { done: total, total };
  return { done: m.status === 'UNDOING' ? total - moved : moved, total };
}

export interface ConflictRow {
  field: string;
  label: string;
  /** the primary's value, kept */
  primary: string;
  /** one cell per duplicate, in the duplicates' order ('' when the server sent none) */
  duplicates: string[];
  /** which duplicates' cells differ from the primary's */
  differs: boolean[];
}

/**
 * The preview's conflicts table: one row per field, the primary's value then each duplicate's, dates of birth as
 * MM/DD/YYYY and birth sex labelled.
 */
export function conflictRows(
  conflicts: ReadonlyArray<{
    field: string;
    label: string;
    target: string | null;
    sources: ReadonlyArray<{ id: string; value: string | null }>;
  }>,
  duplicateIds: readonly string[],
  enumLabel: (v: string | null | undefined) => string = (v) => v ?? '',
): ConflictRow[] {
  const show = (field: string, v: string | null | undefined) =>
    v === null || v === undefined || v === ''
      ? ''
      : field === 'dateOfBirth'
        ? displayDay(v)
        : field === 'sex'
          ? enumLabel(v)
          : v;
  return conflicts.map((c) => {
    const primary = show(c.field, c.target);
    const duplicates = duplicateIds.map((id) => show(c.field, c.sources.find((s) => s.id === id)?.value));
    return {
      field: c.field,
      label: c.label,
      primary,
      duplicates,
      differs: duplicates.map((d) => d.trim().toLowerCase() !== primary.trim().toLowerCase()),
    };
  });
}

/** "First Last (number)" of a merge's source or a patient. */
export function patientLabel(p: {
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
  userId?: string | null;
  patientNumber?: string | null;
}): string {
  const name = [p.firstName, p.lastName].filter(Boolean).join(' ') || p.name || '';
  const number = p.userId ?? p.patientNumber ?? '';
  return number ? (name ? `${name} (${number})` : number) : name;
}
