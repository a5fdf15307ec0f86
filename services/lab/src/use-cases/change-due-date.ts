import { dueDateError } from '@onco/domain';
import { badRequest, type SessionUser } from '@onco/platform';
import type { TestOrderDoc } from '../models';
import type { LabDeps } from './deps';
import { changeTestOrder } from './test-orders';

/** Update Due Date: a calendar day at most 30 days ahead, or null ("Set Due Date to None"). */
export async function updateDueDate(
  deps: LabDeps,
  user: SessionUser,
  id: string,
  dueOn: string | null,
  today: string,
): Promise<TestOrderDoc> {
  const err = dueDateError(dueOn, today);
  if (err) throw badRequest(err);
  return changeTestOrder(deps, user, id, () => ({
    change: 'due-date',
    dueOn: dueOn ? new Date(`${dueOn}T00:00:00.000Z`) : null,
    detail: dueOn,
  }));
}
