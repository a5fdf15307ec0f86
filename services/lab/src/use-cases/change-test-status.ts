import { TEST_RULE_MESSAGES, testStatusChangeError, type TestStatus } from '@onco/domain';
import { badRequest, conflict, type SessionUser } from '@onco/platform';
import type { TestOrderDoc } from '../models';
import type { LabDeps } from './deps';
import { changeTestOrder, findTestOrder } from './test-orders';

/** Update Status (POST updateTestsStatus): each test of the selection, checked first, then changed. */
export async function updateTestsStatus(
  deps: LabDeps,
  user: SessionUser,
  ids: readonly string[],
  status: TestStatus,
): Promise<TestOrderDoc[]> {
  if (!ids.length) throw badRequest(TEST_RULE_MESSAGES.noTests);
  const unique = [...new Set(ids)];
  // check every test before changing any: an unknown id or a refused transition changes nothing
  for (const id of unique) {
    const doc = await findTestOrder(deps, user, id);
    const err = testStatusChangeError(doc.status, status);
    if (err) throw conflict(`${doc.testOrderId ?? id}: ${err}`);
  }
  const out: TestOrderDoc[] = [];
  for (const id of unique) {
    out.push(
      await changeTestOrder(deps, user, id, (doc) => {
        const err = testStatusChangeError(doc.status, status);
        if (err) throw conflict(`${doc.testOrderId ?? id}: ${err}`);
        return { change: 'status', status };
      }),
    );
  }
  return out;
}
