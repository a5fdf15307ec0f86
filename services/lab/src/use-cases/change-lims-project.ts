import { TEST_RULE_MESSAGES } from '@onco/domain';
import { badRequest, type SessionUser } from '@onco/platform';
import type { TestOrderDoc } from '../models';
import type { LabDeps } from './deps';
import { changeTestOrder } from './test-orders';

/** Add/Edit LIMS Project # (POST updateLimsProjectId): must be non-empty (spec 2 section 5). */
export async function updateLimsProjectId(
  deps: LabDeps,
  user: SessionUser,
  id: string,
  limsProjectId: string,
): Promise<TestOrderDoc> {
  const value = limsProjectId.trim();
  if (!value) throw badRequest(TEST_RULE_MESSAGES.limsRequired);
  return changeTestOrder(deps, user, id, () => ({
    change: 'lims-project',
    limsProjectId: value,
    detail: value,
  }));
}
