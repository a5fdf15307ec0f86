/** Through the API into the lab (vitest's expect inside: imported by path, not part of `@onco/lab/testing`). */
import type { System } from '@onco/server';
import { waitFor, type Auth } from '@onco/testing';
import type { LabModels } from '../src/models';
import { submitThroughApi } from '../../requisitions/test/submit';

/** A requisition submitted through the API (draft, sign, submit), once the lab has made each of its test orders. */
export async function submitToLab(sys: System, lab: LabModels, auth: Auth, form: Record<string, any>) {
  const submitted = await submitThroughApi(sys, auth, form);
  const ids = submitted.testOrders.map((t) => t.id);
  await waitFor(
    async () => ((await lab.TestOrder.countDocuments({ _id: { $in: ids } })) === ids.length ? true : null),
    { what: 'the lab test orders', timeoutMs: 45_000 },
  );
  return submitted;
}
