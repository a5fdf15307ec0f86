import { can, scopeFilter, type DashboardQuery, type SessionUser } from '@onco/platform';
import { CLINICAL_REVIEW_STATUSES, type ClinicalReviewStatus } from '@onco/domain';
import type { RequisitionModels } from './models';

/**
 * The requisitions service's part of the home dashboard: `clinicalReview`, the count of submitted, non-deleted
 * requisitions per clinical review status (every status present, zero when none) among those created in the
 * range, within the user's data scope (account or physician). Only for users with CAN_REVIEW_DIAGNOSIS; others
 * get nothing (the key is absent).
 */
export async function requisitionsDashboard(models: RequisitionModels, user: SessionUser, q: DashboardQuery) {
  if (!can(user, 'CAN_REVIEW_DIAGNOSIS')) return {};
  const scope = scopeFilter(user, { account: 'account.id', physician: 'physician.id' });
  const match = {
    $and: [
      ...(Object.keys(scope).length ? [scope] : []),
      { status: 'SUBMITTED' },
      { deleted: { $ne: true } },
      { clinicalReviewStatus: { $in: CLINICAL_REVIEW_STATUSES } },
      { createdOn: { $gte: q.start, $lte: q.end } },
    ],
  };
  const groups = await models.Requisition.aggregate<{ _id: ClinicalReviewStatus; count: number }>([
    { $match: match },
    { $group: { _id: '$clinicalReviewStatus', count: { $sum: 1 } } },
  ]).exec();
  const clinicalReview = Object.fromEntries(CLINICAL_REVIEW_STATUSES.map((s) => [s, 0])) as Record<
    string,
    number
  >;
  for (const g of groups) if (g._id in clinicalReview) clinicalReview[g._id] = g.count;
  return { clinicalReview };
}
