import type { SessionUser } from '@onco/platform';
import type { LabModels, TestOrderDoc } from '../models';
import { testOrderScope } from '../use-cases';
import { chunks, type ManifestUploader } from './plan-model';

/** A test order as the plan reads it: without its history, reports and outbox (requisitionView needs none). */
const ORDER_FIELDS = { outbox: 0, testHistories: 0, reports: 0 } as const;

/** Per requisition id its test orders; the requisition of each TRF # and Test ID found. */
export interface FoundRequisitions {
  ordersOf: Map<string, TestOrderDoc[]>;
  reqOfTrf: Map<string, string>;
  reqOfTest: Map<string, string>;
}

/**
 * Step 2 of the plan: the requisitions named by TRF # or Test ID, in the uploader's scope (their test orders:
 * the lab knows submitted ones only). Per requisition id its test orders; the requisition of each TRF # and Test
 * ID found.
 */
export async function findRequisitions(
  models: LabModels,
  uploader: ManifestUploader,
  trfs: string[],
  tests: string[],
): Promise<FoundRequisitions> {
  const scope = testOrderScope(uploader.scope as SessionUser);
  const byScope = (filter: Record<string, unknown>) =>
    Object.keys(scope).length ? { $and: [filter, scope] } : filter;
  const ordersOf = new Map<string, TestOrderDoc[]>();
  const reqOfTrf = new Map<string, string>();
  const reqOfTest = new Map<string, string>();
  const lookup = async (
    field: string,
    values: string[],
    into: Map<string, string>,
    keyOf: (o: TestOrderDoc) => string | null,
  ) => {
    for (const part of chunks(values)) {
      const found = await models.TestOrder.find(byScope({ [field]: { $in: part } }), ORDER_FIELDS)
        .sort({ createdOn: 1, _id: 1 })
        .lean<TestOrderDoc[]>()
        .exec();
      for (const o of found) {
        const id = o.testOrderForm.id;
        const list = ordersOf.get(id) ?? [];
        if (!list.some((x) => x._id === o._id)) list.push(o);
        ordersOf.set(id, list);
        const k = keyOf(o);
        if (k && !into.has(k)) into.set(k, id);
      }
    }
  };
  await lookup(
    'testOrderForm.testRequisitionId',
    trfs,
    reqOfTrf,
    (o) => o.testOrderForm.testRequisitionId ?? null,
  );
  // found by TRF #: every test order of the requisition in scope is in (they all carry the TRF #)
  const whole = new Set(ordersOf.keys());
  await lookup('testOrderId', tests, reqOfTest, (o) => o.testOrderId ?? null);
  // a requisition found by a test id only: all its test orders (the rules look at every test of it)
  const partial = [...ordersOf.keys()].filter((id) => !whole.has(id));
  for (const part of chunks(partial)) {
    const all = await models.TestOrder.find(byScope({ 'testOrderForm.id': { $in: part } }), ORDER_FIELDS)
      .sort({ createdOn: 1, _id: 1 })
      .lean<TestOrderDoc[]>()
      .exec();
    const grouped = new Map<string, TestOrderDoc[]>();
    for (const o of all) grouped.set(o.testOrderForm.id, [...(grouped.get(o.testOrderForm.id) ?? []), o]);
    for (const [id, list] of grouped) ordersOf.set(id, list);
  }
  return { ordersOf, reqOfTrf, reqOfTest };
}
