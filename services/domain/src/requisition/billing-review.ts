/**
 * The billing review's gate (spec 1 section 5): review-complete on billing is disabled while the Medicare
 * warning shows or the primary billing lacks a required field. The console disables the choice and shows
 * the reasons in the user's language; the server refuses the change with the same reasons (409).
 */
import { BILLING_FIELD_LABELS } from '../billing/billing-fields';
import { primaryBillingIndex } from './issues';
import { REQ_MSG } from './messages';
import type { BillingForm, RequisitionForm } from './schema';
import { requisitionIssues, requisitionWarnings } from './validate';

/** One reason Review Complete is refused: the Medicare warning, no billing, or the primary billing's gaps. */
export type BillingReviewBlocker =
  { code: 'medicare' } | { code: 'no-billing' } | { code: 'primary-missing'; fields: string[] };

export const BILLING_REVIEW_MSG = {
  noBilling: 'The order has no billing.',
  primaryMissing: (labels: string[]) => `The primary billing is missing: ${labels.join(', ')}.`,
  refused: (reasons: string[]) => `The billing review cannot be Review Complete yet. ${reasons.join(' ')}`,
} as const;

/** A blocker in the spec's English (the server's message; the console translates by code). */
export function billingReviewBlockerText(b: BillingReviewBlocker): string {
  if (b.code === 'medicare') return REQ_MSG.medicareWarning;
  if (b.code === 'no-billing') return BILLING_REVIEW_MSG.noBilling;
  return BILLING_REVIEW_MSG.primaryMissing(b.fields.map((f) => BILLING_FIELD_LABELS[f] ?? f));
}

/**
 * Why REVIEW_COMPLETE cannot be set on this requisition's billing review yet: the Medicare warning, and the
 * primary billing's missing required fields (judged with no IS_*_OPTIONAL relaxation: a claim needs them).
 * Empty when it can.
 */
export function billingReviewBlockers(form: RequisitionForm, today: string): BillingReviewBlocker[] {
  const out: BillingReviewBlocker[] = requisitionWarnings(form).length ? [{ code: 'medicare' }] : [];
  const billings = (form.billings ?? []) as BillingForm[];
  if (!billings.length) return [...out, { code: 'no-billing' }];
  const prefix = `billings.${primaryBillingIndex(billings)}.`;
  const fields = requisitionIssues(form, { today, permissions: [] })
    .filter(
      (i) => i.block === 'billing' && i.path.startsWith(prefix) && i.message !== REQ_MSG.medicareWarning,
    )
    .map((i) => i.path.slice(prefix.length).split('.')[0]);
  if (fields.length) out.push({ code: 'primary-missing', fields: [...new Set(fields)] });
  return out;
}
