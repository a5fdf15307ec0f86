import { can, type DashboardQuery, type SessionUser } from '@onco/platform';
import {
  BILLING_REVIEW_STATUSES,
  NEEDS_ATTENTION_CASE_STATUSES,
  type BillingReviewStatus,
} from '@onco/domain';
import type { BillingModels } from './models';
import { billingScope } from './use-cases';

/**
 * The billing service's part of the home dashboard: `billingReview`, the count of billing cases per review
 * status (every status present, zero when none) among the cases created in the range, within the user's data
 * scope; and `billingAttention`, the count of cases that need a person (NEEDS_ATTENTION_CASE_STATUSES: retries
 * exhausted, rejected, update not allowed) whenever they were created, since an old case waiting to be fixed is
 * exactly what the counter is for. Only for users with VIEW_BILLING_DASHBOARD; others get nothing (keys absent).
 */
export async function billingDashboard(models: BillingModels, user: SessionUser, q: DashboardQuery) {
  if (!can(user, 'VIEW_BILLING_DASHBOARD')) return {};
  const scope = billingScope(user);
  const match = {
    $and: [
      ...(Object.keys(scope).length ? [scope] : []),
      { deleted: { $ne: true } },
      { reviewStatus: { $in: BILLING_REVIEW_STATUSES } },
      { createdOn: { $gte: q.start, $lte: q.end } },
    ],
  };
  const groups = await models.BillingCase.aggregate<{ _id: BillingReviewStatus; count: number }>([
    { $match: match },
    { $group: { _id: '$reviewStatus', count: { $sum: 1 } } },
  ]).exec();
  const billingReview = Object.fromEntries(BILLING_REVIEW_STATUSES.map((s) => [s, 0])) as Record<
    string,
    number
  >;
  for (const g of groups) if (g._id in billingReview) billingReview[g._id] = g.count;
  // index { caseStatus: 1, updatedOn: -1 } (the list's Billing Status filter)
  const billingAttention = await models.BillingCase.countDocuments({
    ...scope,
    caseStatus: { $in: NEEDS_ATTENTION_CASE_STATUSES },
    deleted: false,
  }).exec();
  return { billingReview, billingAttention };
}
