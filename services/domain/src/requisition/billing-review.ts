/**
 * The billing review's gate (spec 1 section 5): review-complete on billing is disabled while the Medicare
 * warning shows or the primary billing lacks a required field. The console disables the choice and shows
 * the reasons; the server refuses the change with the same reasons (409).
 */
import { BILLING_FIELD_LABELS } from '../billing/billing-fields';
import { primaryBillingIndex } from './issues';
import { REQ_MSG } from './messages';
import type { BillingForm, RequisitionForm } from './schema';
import { requisitionIssues, requisitionWarnings } from './validate';

export const BILLING_REVIEW_MSG = {
  noBilling: 'The order has no billing.',
  primaryMissing: (fields: string[]) => `The primary billing is missing: ${fields.join(', ')}.`,
  refused: (reasons: string[]) => `The billing review cannot be Review Complete yet. ${reasons.join(' ')}`,
} as const;

/**
 * Why REVIEW_COMPLETE cannot be set on this requisition's billing review yet: the Medicare warning, and the
 * primary billing's missing required fields (judged with no IS_*_OPTIONAL relaxation: a claim needs them).
 * Empty when it can.
 */
export function billingReviewBlockers(form: RequisitionForm, today: string): string[] {
  const reasons = [...requisitionWarnings(form)];
  const billings = (form.billings ?? []) as BillingForm[];
  if (!billings.length) return [...reasons, BILLING_REVIEW_MSG.noBilling];
  const prefix = `billings.${primaryBillingIndex(billings)}.`;
  const missing = requisitionIssues(form, { today, permissions: [] })
    .filter(
      (i) => i.block === 'billing' && i.path.startsWith(prefix) && i.message !== REQ_MSG.medicareWarning,
    )
    .map((i) => i.path.slice(prefix.length).split('.')[0])
    .map((key) => BILLING_FIELD_LABELS[key] ?? key);
  if (missing.length) reasons.push(BILLING_REVIEW_MSG.primaryMissing([...new Set(missing)]));
  return reasons;
}
