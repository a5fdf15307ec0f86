import {
  BILLING_ENTRY_LABELS,
  BILLING_INSURANCE_FIELDS,
  checkBillingEntry,
  formatDisplayDate,
  hasInsuranceFields,
  type BillingEntryForm,
} from '@onco/domain';

/**
 * Pure rules of the patients screens (spec 2 sections 2.6, 2.7, 5, 9): what the lists send and how rows and
 * cards read. The product rules (which action a selection allows, the patient number rule, the billing entry
 * check) come from @onco/domain.
 */

export interface CreatedRange {
  start: number | null;
  end: number | null;
}

/** The Created range as the list's filter (`between(start, end)` on createdOn, epoch milliseconds). */
export function patientsBaseFilter(range: CreatedRange): Record<string, unknown> {
  return range.start !== null || range.end !== null
    ? { createdOn: `between(${range.start ?? 0},${range.end ?? 8_640_000_000_000_000})` }
    : {};
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
