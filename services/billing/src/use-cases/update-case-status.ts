import { billingStatusUpdateError, type BillingCaseStatus } from '@onco/domain';
import type { SessionUser } from '@onco/platform';
import type { BillingCaseDoc } from '../models';
import { orRefuse } from './cases';
import type { BillingDeps } from './deps';
import { changeEach, findAll, refuseAny } from './each-case';

/** Update Billing Status (PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION to FIXED_IN_XIFIN), all or none. */
export async function updateCaseStatus(
  deps: BillingDeps,
  user: SessionUser,
  ids: string[],
  to: BillingCaseStatus,
): Promise<BillingCaseDoc[]> {
  const cases = await findAll(deps, user, ids);
  refuseAny(cases, (c) => billingStatusUpdateError(c.caseStatus, to));
  return changeEach(deps, user, cases, (doc) =>
    orRefuse(billingStatusUpdateError(doc.caseStatus, to), { set: { caseStatus: to } }),
  );
}
