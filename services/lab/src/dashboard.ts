import { can, scopeFilter, toApi, type DashboardQuery, type SessionUser } from '@onco/platform';
import { TEST_STATUSES, type TestStatus } from '@onco/domain';
import type { LabModels } from './models';

/** Recently Completed Tests: REPORT_COMPLETE, 8 a page, updatedOn DESC (spec 2 sections 2.1 and 9). */
export const RECENT_PER_PAGE = 8;
/** Statuses the Test Status panel shows (TEST_SELECTED excluded, spec 2 section 2.1). */
export const DASHBOARD_TEST_STATUSES = TEST_STATUSES.filter((s) => s !== 'TEST_SELECTED');

const and = (...parts: Record<string, unknown>[]) => {
  const xs = parts.filter((p) => Object.keys(p).length > 0);
  return xs.length === 1 ? xs[0] : { $and: xs };
};

/**
 * The lab's part of the home dashboard, from test_orders only and within the user's data scope:
 * `testStatus` (count per status of the tests created in the range, every shown status present, zero when none)
 * and `recentlyCompleted` (REPORT_COMPLETE tests, newest update first, not limited by the range). Only for users
 * who may see tests (VIEW_TESTS_PAGE: the counters lead to /tests); others get nothing (the keys are absent).
 */
export async function labDashboard(models: LabModels, user: SessionUser, q: DashboardQuery) {
  if (!can(user, 'VIEW_TESTS_PAGE')) return {};
  const scope = scopeFilter(user, {
    account: 'testOrderForm.account.id',
    physician: 'testOrderForm.physician.id',
  });
  const live = { deleted: { $ne: true } };
  const counted = and(scope, live, {
    status: { $in: DASHBOARD_TEST_STATUSES },
    createdOn: { $gte: q.start, $lte: q.end },
  });
  const completed = and(scope, live, { status: 'REPORT_COMPLETE' });
  const [groups, rows, total] = await Promise.all([
    models.TestOrder.aggregate<{ _id: TestStatus; count: number }>([
      { $match: counted },
      { $group: { _id: '$status', count: { $sum: 1 } } },
    ]).exec(),
    models.TestOrder.find(completed, { outbox: 0 })
      .sort({ updatedOn: -1, _id: -1 })
      .skip(q.page * RECENT_PER_PAGE)
      .limit(RECENT_PER_PAGE)
      .lean()
      .exec(),
    models.TestOrder.countDocuments(completed).exec(),
  ]);
  const testStatus = Object.fromEntries(DASHBOARD_TEST_STATUSES.map((s) => [s, 0])) as Record<string, number>;
  for (const g of groups) if (g._id in testStatus) testStatus[g._id] = g.count;
  return {
    testStatus,
    recentlyCompleted: {
      content: rows.map((r) => toApi(r)),
      totalElements: total,
      page: q.page,
      perPage: RECENT_PER_PAGE,
    },
  };
}
