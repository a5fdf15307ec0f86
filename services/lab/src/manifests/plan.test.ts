import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@onco/platform';
import { applyManifestPlan } from './apply';
import { filePlan } from './plan-model';

describe("applyManifestPlan: a dry run's plan (no documents built) is never applied", () => {
  it('refuses it before writing anything', async () => {
    const plan = { ...filePlan([]), rows: 1, creates: [{ row: 2, doc: null }] };
    await expect(
      applyManifestPlan({} as never, {} as never, plan, { id: 'u', name: 'U' }, new Date(), SYSTEM_ACTOR),
    ).rejects.toThrow(/dry run's plan is not applied \(row 2\)/);
  });
});
