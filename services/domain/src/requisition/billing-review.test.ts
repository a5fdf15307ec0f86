import { describe, expect, it } from 'vitest';
import { billingReviewBlockers, billingReviewBlockerText } from './billing-review';
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
    const blockers = billingReviewBlockers(f, TODAY);
    expect(blockers[0]).toEqual({ code: 'medicare' });
    expect(billingReviewBlockerText(blockers[0])).toBe(
      'Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type',
    );
  });

  it("the primary billing's missing required fields are named; no billing at all is a reason too", () => {
    const f = completeForm();
    f.billings![0].policyNumber = null;
    const blockers = billingReviewBlockers(f, TODAY);
    expect(blockers).toEqual([{ code: 'primary-missing', fields: ['policyNumber'] }]);
    expect(billingReviewBlockerText(blockers[0])).toBe('The primary billing is missing: Policy Number.');
    const none = billingReviewBlockers({ ...completeForm(), billings: [] }, TODAY);
    expect(none.map(billingReviewBlockerText)).toEqual(['The order has no billing.']);
  });

  it('a secondary billing that is incomplete does not block', () => {
    const f = completeForm();
    f.billings!.push({ billingType: 'INSURANCE', preference: 'SECONDARY' } as never);
    expect(billingReviewBlockers(f, TODAY)).toEqual([]);
  });
});
