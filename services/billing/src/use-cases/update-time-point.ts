import { caseActionError, timePointError } from '@onco/domain';
import { actorOf, type SessionUser } from '@onco/platform';
import type { BillingCaseDoc } from '../models';
import { changeUserCase, orRefuse } from './cases';
import type { BillingDeps } from './deps';

/** Update Timepoint of one case: a subsequent order with a complete or amended report. */
export function updateTimePoint(
  deps: BillingDeps,
  user: SessionUser,
  id: string,
  timePoint: string,
): Promise<BillingCaseDoc> {
  return changeUserCase(
    deps,
    user,
    id,
    (doc) =>
      orRefuse(caseActionError(doc.caseStatus) ?? timePointError(doc), { set: { timePoint }, history: true }),
    actorOf(user),
  );
}
