import { describe, expect, it } from 'vitest';
import { KIT_MSG, kitFormComplete, normalizeKitForm, validateKitForm, type KitForm } from './kits';

const ok: KitForm = {
  testKitType: 'FFPE',
  numberOfKits: '3',
  recipient: ' Dr. Grace Hopper ',
  institute: '',
  street: '2 Harbor Dr',
  suite: null,
  city: 'St. Louis-Park',
  state: 'MO',
  postalCode: '63101',
  shippingRequest: 'GROUND',
};

describe('kit form (spec 2 section 5)', () => {
  it('accepts a complete form and stores it trimmed, the quantity as a number', () => {
    expect(validateKitForm(ok)).toEqual({});
    expect(kitFormComplete(ok)).toBe(true);
    expect(normalizeKitForm(ok)).toMatchObject({
      numberOfKits: 3,
      recipient: 'Dr. Grace Hopper',
      institute: null,
    });
  });

  it('requires every required field; institute and suite are optional', () => {
    expect(kitFormComplete({ ...ok, recipient: '  ' })).toBe(false);
    expect(kitFormComplete({ ...ok, institute: null, suite: null })).toBe(true);
    expect(validateKitForm({})).toEqual({
      testKitType: KIT_MSG.required,
      numberOfKits: KIT_MSG.required,
      recipient: KIT_MSG.required,
      street: KIT_MSG.required,
      city: KIT_MSG.required,
      state: KIT_MSG.required,
      postalCode: KIT_MSG.required,
      shippingRequest: KIT_MSG.required,
    });
  });

  it('takes whole numbers from 1 to 1000 only', () => {
    for (const n of ['1', 1000, ' 42 ']) expect(validateKitForm({ ...ok, numberOfKits: n })).toEqual({});
    for (const n of ['0', 1001, '2.5', '-1', '1e2', 'ten'])
      expect(validateKitForm({ ...ok, numberOfKits: n })).toEqual({ numberOfKits: KIT_MSG.quantity });
  });

  it('checks city letters, the state list, the ZIP code and the kit and shipping choices', () => {
    expect(validateKitForm({ ...ok, city: 'Room 101' }).city).toBe(KIT_MSG.city);
    expect(validateKitForm({ ...ok, state: 'Missouri' }).state).toBe(KIT_MSG.state);
    // the one zip rule (domain/contact.ts): a hyphen and up to 4 digits
    expect(validateKitForm({ ...ok, postalCode: '63101-12345' }).postalCode).toBe(KIT_MSG.postalCode);
    expect(validateKitForm({ ...ok, postalCode: '63101-12' })).toEqual({});
    expect(validateKitForm({ ...ok, postalCode: '63101-1234' })).toEqual({});
    expect(validateKitForm({ ...ok, testKitType: 'SALIVA' }).testKitType).toBe(KIT_MSG.required);
    expect(validateKitForm({ ...ok, shippingRequest: 'DRONE' }).shippingRequest).toBe(KIT_MSG.required);
    expect(validateKitForm({ ...ok, recipient: 'x'.repeat(101) }).recipient).toBe(KIT_MSG.tooLong(100));
  });
});
