import { type TestType } from '@onco/domain';
import { type SessionUser } from '@onco/platform';
import type { LabModels, TestOrderDoc } from '../models';
import { testOrderScope } from '../use-cases';

/**
 * POST getLimsInfo: the LIMS projects of a patient, from the test orders in the user's scope (not deleted) that
 * have a LIMS project #: one entry per requisition and project, with the test types on it.
 */
export async function limsInfo(models: LabModels, user: SessionUser, patientId: string) {
  const orders = await models.TestOrder.find({
    'testOrderForm.patient.id': patientId,
    deleted: false,
    limsProjectId: { $nin: [null, ''] },
    ...testOrderScope(user),
  })
    .sort({ createdOn: 1, _id: 1 })
    .lean<TestOrderDoc[]>()
    .exec();
  const byKey = new Map<
    string,
    {
      testTypes: TestType[];
      limsProjectId: string;
      testRequisitionId: string | null;
      diagnosis: string | null;
      testOrderFormId: string;
    }
  >();
  for (const o of orders) {
    const key = `${o.testOrderForm.id}\u0000${o.limsProjectId}`;
    const entry = byKey.get(key) ?? {
      testTypes: [],
      limsProjectId: o.limsProjectId!,
      testRequisitionId: o.testOrderForm.testRequisitionId ?? null,
      diagnosis: o.testOrderForm.diagnosis ?? null,
      testOrderFormId: o.testOrderForm.id,
    };
    if (!entry.testTypes.includes(o.testType)) entry.testTypes.push(o.testType);
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}
