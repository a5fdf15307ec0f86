import { describe, expect, it } from 'vitest';
import { billingReviewBlockers } from './billing-review';
import { completeForm } from './test-fixtures';

const TODAY = '2026-11-28';

describe('billingReviewBlockers: when Review Complete on billing is refused (spec 1 section 5)', () => {
  it('a complete primary billing and no Medicare gap: nothing blocks', () => {
    expect(billingReviewBlockers(completeForm(), TODAY)).toEqual([]);
  });

  it('Medicare with a NeXT Personal Dx test and no drug name: the Medicare warning', () => {
    const f = completeForm();
    f.billings = [{ billingType: 'MEDICARE', preference: 'PRIMARY', medicareId: '1EG4TE5MK73' } as never];
    f.tumorSpecimen!.drugName = null;
    expect(billingReviewBlockers(f, TODAY)).toContain(
      'Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type',
    );
  });

  it("the primary billing's missing required fields are named; no billing at all is a reason too", () => {
    const f = completeForm();
    f.billings![0].policyNumber = null;
    const reasons = billingReviewBlockers(f, TODAY);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^The primary billing is missing: .*Policy Number/);
    expect(billingReviewBlockers({ ...completeForm(), billings: [] }, TODAY)).toEqual([
      'The order has no billing.',
    ]);
  });

  it('a secondary billing that is incomplete does not block', () => {
    const f = completeForm();
    f.billings!.push({ billingType: 'INSURANCE', preference: 'SECONDARY' } as never);
    expect(billingReviewBlockers(f, TODAY)).toEqual([]);
  });
});
