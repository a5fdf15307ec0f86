import {
  BILLING_ERROR_STATUSES,
  NEEDS_ATTENTION_CASE_STATUSES,
  billingStatusOptions,
  timePointError,
  type BillingCaseStatus,
} from '@onco/domain';
import type { BillingCaseRow } from './api';

/**
 * Pure rules of the billing screen (spec 3 sections 2.9, 4.3 and 6). The submit rule itself is
 * @onco/domain's canSubmitCase (the server enforces it); this file shapes what the screen shows.
 */

/** Statuses whose history chip is red (an error happened); the rest are green (spec 3 section 2.9). */
export const ERROR_STATUSES: readonly BillingCaseStatus[] = [
  ...BILLING_ERROR_STATUSES,
  'RETRY_FAILED',
  'DOC_UPLOAD_FAILED',
  'DOC_UPLOAD_PARTIAL',
];

/** The Billing Status colours of spec 3 section 4.3. */
export function statusColour(status: BillingCaseStatus): string {
  switch (status) {
    case 'REJECTED_BY_XIFIN':
    case 'DUPLICATE_ACCESSION':
      return '#c62828'; // red
    case 'PARTIALLY_ACCEPTED':
      return '#1565c0'; // blue
    case 'PAYOR_SYSTEM_DOWN':
      return '#7f0000'; // dark red
    case 'UPDATE_NOT_ALLOWED':
      return '#6d4c41'; // brown
    case 'ACCEPTED_BY_XIFIN':
    case 'BILLING_COMPLETE':
    case 'RETRY_SUCCEEDED':
    case 'FIXED_IN_XIFIN':
      return '#2e7d32'; // green (completed)
    default:
      return 'inherit';
  }
}

/** How often the list looks again while a case it shows is on its way to the billing system. */
export const BILLING_POLL_MS = 3_000;

/**
 * Statuses the submission worker moves on by itself within seconds (queued, sent, retried): while a row shows one,
 * the list refreshes itself, so the billing system's answer (accepted, rejected, ...) appears without a reload.
 */
export const IN_TRANSIT_STATUSES: readonly BillingCaseStatus[] = [
  'QUEUED_FOR_SUBMISSION',
  'SUBMITTED_TO_XIFIN',
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
];

export const needsPolling = (rows: readonly Pick<BillingCaseRow, 'caseStatus'>[]) =>
  rows.some((r) => IN_TRANSIT_STATUSES.includes(r.caseStatus));

/** Which Actions menu entries apply to a selection (spec 3 section 6, "Action enablement in billing"). */
export function billingActions(selected: readonly BillingCaseRow[], permissions: readonly string[]) {
  const can = (p: string) => permissions.includes(p);
  return {
    billingCode: can('VIEW_BILLING_ACTIONS') && can('CAN_UPDATE_BILLING_CODE') && selected.length === 1,
    assign: can('VIEW_BILLING_ACTIONS') && can('CAN_UPDATE_ASSIGNEE') && selected.length >= 1,
    timePoint: can('VIEW_BILLING_ACTIONS') && selected.length === 1 && timePointError(selected[0]) === null,
    status:
      can('VIEW_BILLING_ACTIONS') &&
      billingStatusOptions(
        selected.map((r) => r.caseStatus),
        permissions,
      ).length > 0,
    // bulk Submit (the needs-attention view): each case is checked on its own by the server
    submit: can('VIEW_BILLING_ACTIONS') && selected.length >= 1,
  };
}

/** What the list opens with: the home dashboard's Billing Review counters and its Needs attention counter. */
export interface BillingNavState {
  billingReviewStatus: string | null;
  needsAttention: boolean;
}
export function initialBillingState(state: unknown): BillingNavState {
  const s = (state ?? {}) as { billingReviewStatus?: unknown; needsAttention?: unknown };
  return {
    billingReviewStatus:
      typeof s.billingReviewStatus === 'string' && s.billingReviewStatus ? s.billingReviewStatus : null,
    needsAttention: s.needsAttention === true,
  };
}

/**
 * Whether the dashboard opened the list on a counter: the list then shows exactly what the counter counted, so
 * the filters remembered from earlier visits (a search, a facet that would even replace the counter's review
 * status) are neither applied nor overwritten on this visit.
 */
export const opensOnCounter = (nav: BillingNavState) =>
  nav.billingReviewStatus !== null || nav.needsAttention;

/**
 * The filter always sent: the review status the dashboard opened the list with, and with "Needs attention" on,
 * the Billing Status values that need a person (@onco/domain NEEDS_ATTENTION_CASE_STATUSES). A value chosen in
 * the list's own filters wins over these.
 */
export function billingBaseFilter(nav: BillingNavState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (nav.billingReviewStatus) out.reviewStatus = [nav.billingReviewStatus];
  if (nav.needsAttention) out.caseStatus = [...NEEDS_ATTENTION_CASE_STATUSES];
  return out;
}

/** History entries newest first. */
export function historyNewestFirst<T extends { createdOn: string }>(entries: readonly T[] | undefined): T[] {
  return [...(entries ?? [])].sort((a, b) => +new Date(b.createdOn) - +new Date(a.createdOn));
}
