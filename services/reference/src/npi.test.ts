import { describe, expect, it } from 'vitest';
import { isValidNpi, makeNpi, npiCheckDigit } from './npi';
import { DEMO_PATHOLOGISTS, DEMO_PHYSICIANS, npiOf } from './demo-data';

describe('NPI check digit', () => {
  it('matches the CMS worked example (123456789 -> 1234567893)', () => {
    expect(npiCheckDigit('123456789')).toBe(3);
    expect(makeNpi('123456789')).toBe('1234567893');
    expect(isValidNpi('1234567893')).toBe(true);
  });

  it('rejects a wrong check digit and malformed numbers', () => {
    expect(isValidNpi('1234567890')).toBe(false);
    expect(isValidNpi('123456789')).toBe(false);
    expect(isValidNpi('12345678931')).toBe(false);
    expect(() => npiCheckDigit('12345678a')).toThrow();
  });

  it('every demo NPI is valid and unique', () => {
    const npis = [...DEMO_PHYSICIANS, ...DEMO_PATHOLOGISTS].map((p) => npiOf(p.npiBase));
    for (const n of npis) expect(isValidNpi(n), n).toBe(true);
    expect(new Set(npis).size).toBe(npis.length);
  });
});
