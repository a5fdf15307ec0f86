import { describe, expect, it } from 'vitest';
import { KIT_MSG, validateKitForm, type KitForm } from '@onco/domain';
import { interpolate, lookupMessage } from '../../components/messages';
import { kitMessageKey, kitsEn, kitsZh } from './i18n';

const ok: KitForm = {
  testKitType: 'FFPE',
  numberOfKits: '3',
  recipient: 'Dr. Grace Hopper',
  street: '2 Harbor Dr',
  city: 'St. Louis',
  state: 'MO',
  postalCode: '63101',
  shippingRequest: 'GROUND',
};

/** every message the form's rules give, from forms that break each rule */
const problems = [
  validateKitForm({}),
  validateKitForm({ ...ok, numberOfKits: '0', city: 'St. Louis 7', postalCode: '631', state: 'XX' }),
  validateKitForm({ ...ok, recipient: 'x'.repeat(101) }),
].flatMap((p) => Object.values(p) as string[]);

describe('kit form messages in the screen’s language', () => {
  it('the rules give every kind of message (the test covers them all)', () => {
    expect(new Set(problems)).toEqual(
      new Set([
        KIT_MSG.required,
        KIT_MSG.quantity,
        KIT_MSG.city,
        KIT_MSG.postalCode,
        KIT_MSG.state,
        KIT_MSG.tooLong(100),
      ]),
    );
  });

  it('each maps to a key whose English is the message itself and whose Chinese is Chinese', () => {
    for (const text of problems) {
      const m = kitMessageKey(text);
      expect(m, text).not.toBeNull();
      expect(interpolate(lookupMessage(kitsEn, m!.key)!, m!.values ?? {})).toBe(text);
      const zh = interpolate(lookupMessage(kitsZh, m!.key)!, m!.values ?? {});
      expect(zh).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(interpolate(lookupMessage(kitsZh, 'kits.msg.tooLong')!, { max: 100 })).toContain('100');
  });

  it('a text it does not know is shown as it came', () => {
    expect(kitMessageKey('Account is required')).toBeNull();
    expect(kitMessageKey('At most many characters')).toBeNull();
  });
});
