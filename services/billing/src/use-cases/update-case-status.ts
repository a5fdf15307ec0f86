import {
  BILLING_MESSAGES,
  billingStatusUpdateError,
  MANUAL_STATUS_CHANGES,
  type BillingCaseStatus,
  type ManualStatusTarget,
} from '@onco/domain';
import { badRequest, forbidden, type SessionUser } from '@onco/platform';
import type { BillingCaseDoc } from '../models';
import { orRefuse } from './cases';
import type { BillingDeps } from './deps';
import { changeEach, findAll, refuseAny } from './each-case';

/**
 * Update Billing Status, all or none: FIXED_IN_XIFIN from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION; with
 * CAN_CLOSE_BILLING_CASES and a reason, BILLING_COMPLETE, RETIRED_FROM_BILLING or ON_HOLD_EXTERNAL
 * (MANUAL_STATUS_CHANGES, services/domain). The reason is kept on the history entry.
 */
export async function updateCaseStatus(
  deps: BillingDeps,
  user: SessionUser,
  ids: string[],
  to: BillingCaseStatus,
  reason?: string | null,
): Promise<BillingCaseDoc[]> {
  const granted = user.grantedAuthorities;
  const why = reason?.trim() || undefined;
  // a refusal every case shares (the permission, the reason) is a 403 / 400, not a 409 per case
  const rule = (MANUAL_STATUS_CHANGES as Record<string, (typeof MANUAL_STATUS_CHANGES)[ManualStatusTarget]>)[
    to
  ];
  if (rule?.permission && !granted.includes(rule.permission))
    throw forbidden(BILLING_MESSAGES.statusNeedsPermission(to, rule.permission));
  if (rule?.reason && !why)
    throw badRequest(BILLING_MESSAGES.statusNeedsReason(to), {
      fields: { reason: BILLING_MESSAGES.reasonRequired },
    });
  const cases = await findAll(deps, user, ids);
  refuseAny(cases, (c) => billingStatusUpdateError(c.caseStatus, to, granted, why));
  return changeEach(deps, user, cases, (doc) =>
    orRefuse(billingStatusUpdateError(doc.caseStatus, to, granted, why), {
      set: { caseStatus: to },
      ...(why ? { reason: why } : {}),
    }),
  );
}
