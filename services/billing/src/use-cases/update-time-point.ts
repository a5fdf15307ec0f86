import { caseActionError, timePointError } from '@onco/domain';
import type { SessionUser } from '@onco/platform';
import { changeUserCase, orRefuse } from './cases';
import type { BillingDeps } from './deps';

/** Update Timepoint of one case: a subsequent order with a complete or amended report. */
export const updateTimePoint = (deps: BillingDeps, user: SessionUser, id: string, timePoint: string) =>
  changeUserCase(deps, user, id, (doc) =>
    orRefuse(caseActionError(doc.caseStatus) ?? timePointError(doc), { set: { timePoint }, history: true }),
  );
