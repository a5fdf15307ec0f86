import { describe, expect, it } from 'vitest';
import { CITY_RE, isEmail, isPhone, isZip, phoneDigits } from './contact';

describe('contact rules (one copy for the server and the console)', () => {
  it('phone and fax: 10 digits once the separators are gone', () => {
    expect(phoneDigits('(206) 555-0100')).toBe('2065550100');
    expect(isPhone('(206) 555-0100')).toBe(true);
    expect(isPhone('206.555.0100')).toBe(true);
    expect(isPhone('206555010')).toBe(false);
    expect(isPhone('20655501000')).toBe(false);
    expect(isPhone('206-555-01OO')).toBe(false);
  });

  it('zip: 5 digits, optionally a hyphen and up to 4 digits', () => {
    for (const ok of ['63101', '63101-1', '63101-12', '63101-1234', ' 63101 '])
      expect(isZip(ok), ok).toBe(true);
    for (const bad of ['6310', '63101-', '63101-12345', '63101 1234', 'ABCDE'])
      expect(isZip(bad), bad).toBe(false);
  });

  it('city: letters, hyphen, period or space; e-mail: something@domain.tld', () => {
    expect(CITY_RE.test('St. Louis')).toBe(true);
    expect(CITY_RE.test('Winston-Salem')).toBe(true);
    expect(CITY_RE.test('San Diego 2')).toBe(false);
    expect(isEmail(' ana@clinic.example.org ')).toBe(true);
    expect(isEmail('ana@clinic')).toBe(false);
    expect(isEmail('ana clinic@x.org')).toBe(false);
  });
});
