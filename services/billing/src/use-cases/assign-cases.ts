import { notFound, type SessionUser } from '@onco/platform';
import type { BillingCaseDoc, BillingSpecialistDoc } from '../models';
import type { BillingDeps } from './deps';
import { changeEach, findAll } from './each-case';

/** Assign Billing User (spec 3 section 7.3): an active specialist on one or many cases, all or none. */
export async function assignCases(
  deps: BillingDeps,
  user: SessionUser,
  specialistId: string,
  ids: string[],
): Promise<BillingCaseDoc[]> {
  const specialist = await deps.models.BillingSpecialist.findOne({ _id: specialistId, active: true })
    .lean<BillingSpecialistDoc>()
    .exec();
  if (!specialist) throw notFound(`Billing specialist ${specialistId} not found.`);
  const cases = await findAll(deps, user, ids);
  const assignee = { id: specialist._id, name: specialist.name };
  return changeEach(deps, user, cases, () => ({ set: { assignee }, history: true }));
}
