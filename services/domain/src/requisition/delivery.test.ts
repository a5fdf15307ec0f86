import { describe, expect, it } from 'vitest';
import { DELIVERY_METHODS } from '../enums';
import {
  DELIVERY_METHOD_LABELS,
  deliveryMethodProblem,
  deliversByFax,
  type DeliveryMethod,
} from './delivery';
import { signedFieldsChanged } from './lifecycle';
import { REQ_MSG } from './messages';
import { copyForm } from './normalize';
import { RequisitionFormSchema } from './schema';
import { completeForm, ctx } from './test-fixtures';
import { saveProblems, submitProblems, validateRequisition } from './validate';

const NEEDS_FAX = "Delivery by fax needs the provider's fax number";

/** the complete form with the ordering provider's delivery method and fax */
const withDelivery = (deliveryMethod: DeliveryMethod | null, fax: string | null) => {
  const f = completeForm();
  f.physician = { ...f.physician, deliveryMethod, fax };
  return f;
};

describe('report delivery method (deliveryMethodProblem)', () => {
  it('given FAX or BOTH without a fax number, then the rule says so', () => {
    expect(REQ_MSG.faxDeliveryNeedsFax).toBe(NEEDS_FAX);
    for (const deliveryMethod of ['FAX', 'BOTH'] as const) {
      expect(deliveryMethodProblem({ deliveryMethod })).toBe(NEEDS_FAX);
      expect(deliveryMethodProblem({ deliveryMethod, fax: null })).toBe(NEEDS_FAX);
      expect(deliveryMethodProblem({ deliveryMethod, fax: '   ' })).toBe(NEEDS_FAX);
    }
  });

  it('given FAX or BOTH with a fax number, EMAIL, or no method, then there is nothing to say', () => {
    expect(deliveryMethodProblem({ deliveryMethod: 'FAX', fax: '5551234567' })).toBeNull();
    expect(deliveryMethodProblem({ deliveryMethod: 'BOTH', fax: '(555) 123-4567' })).toBeNull();
    expect(deliveryMethodProblem({ deliveryMethod: 'EMAIL', fax: null })).toBeNull();
    expect(deliveryMethodProblem({ deliveryMethod: null })).toBeNull();
    expect(deliveryMethodProblem(null)).toBeNull();
    expect(deliveryMethodProblem(undefined)).toBeNull();
  });

  it('a malformed fax number is the fax field’s problem, not the delivery method’s', () => {
    const errors = validateRequisition(withDelivery('FAX', '123'), ctx());
    expect(errors.provider).toEqual({ 'physician.fax': 'Invalid Fax' });
  });

  it('FAX and BOTH deliver by fax; EMAIL and nothing do not', () => {
    expect(DELIVERY_METHODS.filter(deliversByFax)).toEqual(['FAX', 'BOTH']);
    expect(deliversByFax(null)).toBe(false);
  });

  it('every method has its printed label', () => {
    expect(DELIVERY_METHODS.map((m) => DELIVERY_METHOD_LABELS[m])).toEqual(['Email', 'Fax', 'Email and fax']);
  });
});

describe('the delivery rule in the requisition validation (server and wizard alike)', () => {
  it('given FAX without the provider fax, then the provider block reports it on the method, for a save and a submit', () => {
    const f = withDelivery('FAX', null);
    expect(validateRequisition(f, ctx()).provider).toEqual({ 'physician.deliveryMethod': NEEDS_FAX });
    // a value that breaks a rule: a draft save is refused too
    expect(saveProblems(f, ctx())).toEqual({ provider: { 'physician.deliveryMethod': NEEDS_FAX } });
    expect(submitProblems(f, ctx())).toEqual({ provider: { 'physician.deliveryMethod': NEEDS_FAX } });
  });

  it('given IS_PROVIDER_INFO_OPTIONAL, then the rule still holds (it is not a required field)', () => {
    const f = withDelivery('BOTH', '');
    expect(saveProblems(f, ctx('IS_PROVIDER_INFO_OPTIONAL')).provider).toEqual({
      'physician.deliveryMethod': NEEDS_FAX,
    });
  });

  it('given BOTH with the provider fax, or EMAIL without one, then the provider block is clean', () => {
    expect(validateRequisition(withDelivery('BOTH', '5559876543'), ctx()).provider).toEqual({});
    expect(validateRequisition(withDelivery('EMAIL', null), ctx()).provider).toEqual({});
  });

  it('the form schema takes the three methods on the ordering provider only', () => {
    for (const m of DELIVERY_METHODS)
      expect(
        RequisitionFormSchema.parse({ physician: { deliveryMethod: m } }).physician?.deliveryMethod,
      ).toBe(m);
    expect(RequisitionFormSchema.safeParse({ physician: { deliveryMethod: 'POST' } }).success).toBe(false);
    // the additional provider's block has no method: the key is stripped
    const parsed = RequisitionFormSchema.parse({ additionalPhysician: { deliveryMethod: 'FAX' } });
    expect(parsed.additionalPhysician).toEqual({});
  });

  it('a copy keeps the method, and an edit of it is a change of the signed form', () => {
    const f = withDelivery('BOTH', '5559876543');
    expect(copyForm(f).physician).toMatchObject({ deliveryMethod: 'BOTH', fax: '5559876543' });
    expect(signedFieldsChanged(f, withDelivery('FAX', '5559876543'))).toEqual(['physician.deliveryMethod']);
  });
});
