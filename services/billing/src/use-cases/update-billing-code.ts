import { caseActionError, qualification } from '@onco/domain';
import type { SessionUser } from '@onco/platform';
import { changeUserCase, orRefuse } from './cases';
import type { BillingDeps } from './deps';

/** Update Billing Code of one case: with a code the case may qualify (spec 3 section 4.3). */
export const updateBillingCode = (deps: BillingDeps, user: SessionUser, id: string, code: string) =>
  changeUserCase(deps, user, id, (doc) =>
    orRefuse(caseActionError(doc.caseStatus), {
      set: { billingCode: code, ...qualification({ ...doc, billingCode: code }, new Date()) },
      history: true,
    }),
  );
