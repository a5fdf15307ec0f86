import { describe, expect, it } from 'vitest';
import { REQUISITION_FORM_KEYS } from './form-keys';
import { RequisitionFormSchema } from './schema';

describe('REQUISITION_FORM_KEYS', () => {
  it('are exactly the keys of RequisitionFormSchema, in order', () => {
    expect([...REQUISITION_FORM_KEYS]).toEqual(Object.keys(RequisitionFormSchema.shape));
  });
});
