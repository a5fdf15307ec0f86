import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  addYears,
  dateWindows,
  formatDisplayDate,
  isIsoDate,
  parseBillingDate,
  parseIsoDate,
} from './dates';

describe('date helpers', () => {
  it('parseIsoDate accepts real calendar dates only', () => {
    expect(parseIsoDate('2024-02-29')).toBe('2024-02-29');
    expect(parseIsoDate('2023-02-29')).toBeNull();
    expect(parseIsoDate('2024-13-01')).toBeNull();
    expect(parseIsoDate('2024-1-01')).toBeNull();
    expect(parseIsoDate(20240101)).toBeNull();
    expect(isIsoDate('2024-01-01')).toBe(true);
    expect(isIsoDate(' 2024-01-01')).toBe(false);
  });
  it('parseIsoDate agrees with the calendar on every day of 1899-2101 and on near misses', () => {
    // the reference: what Date.UTC makes of the parts (years past 99, so no 19xx mapping)
    const real = (y: number, m: number, d: number) => {
      const t = new Date(Date.UTC(y, m - 1, d));
      return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
    };
    const p2 = (n: number) => String(n).padStart(2, '0');
    // ~94,000 strings: the disagreements are collected and asserted once (an expect each took ~5 s on a busy CI)
    let checked = 0;
    const disagreements: string[] = [];
    for (let y = 1899; y <= 2101; y++)
      for (let m = 0; m <= 13; m++)
        for (let d = 0; d <= 32; d++) {
          const s = `${y}-${p2(m)}-${p2(d)}`;
          if (parseIsoDate(s) !== (real(y, m, d) ? s : null)) disagreements.push(s);
          checked++;
        }
    expect(disagreements).toEqual([]);
    expect(checked).toBe(203 * 14 * 33);
    expect(parseIsoDate('2000-02-29')).toBe('2000-02-29');
    expect(parseIsoDate('1900-02-29')).toBeNull();
    for (const bad of ['2024-0a-01', '2024/01/01', '202x-01-01', '2024-01-0 ', '0000-01-01', '2024-01--1'])
      expect(parseIsoDate(bad), bad).toBeNull();
    expect(parseIsoDate(' 2024-01-01 ')).toBe('2024-01-01');
  });
  it('parseBillingDate reads MM/DD/YYYY', () => {
    expect(parseBillingDate('05/04/1960')).toBe('1960-05-04');
    expect(parseBillingDate('5/4/1960')).toBe('1960-05-04');
    expect(parseBillingDate('02/30/2020')).toBeNull();
    expect(parseBillingDate('1960-05-04')).toBeNull();
    expect(parseBillingDate(null)).toBeNull();
  });
  it('formatDisplayDate shows MM/DD/YYYY', () => {
    expect(formatDisplayDate('2026-11-21')).toBe('11/21/2026');
    expect(formatDisplayDate('junk')).toBe('junk');
  });
  it('adds days, months (clamped) and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addMonths('2026-11-30', 3)).toBe('2027-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2026-01-15', -3)).toBe('2025-10-15');
    expect(addYears('2024-02-29', -18)).toBe('2006-02-28');
  });
});

describe('dateWindows', () => {
  const w = dateWindows('2026-11-21');
  it('tumor collection: 18 years back to today', () => {
    expect(w.tumorCollection).toEqual({ min: '2008-11-21', max: '2026-11-21' });
  });
  it('blood collection: 10 days back for BLOOD, 1 Jan 2022 otherwise, up to 3 months ahead', () => {
    expect(w.bloodCollection('BLOOD')).toEqual({ min: '2026-11-11', max: '2027-02-21' });
    expect(w.bloodCollection('SALIVA')).toEqual({ min: '2022-01-01', max: '2027-02-21' });
    expect(w.bloodCollection(null)).toEqual({ min: '2022-01-01', max: '2027-02-21' });
  });
  it('date of birth, date of diagnosis and billing dates: 1900-01-01 to today', () => {
    for (const win of [w.dateOfBirth, w.dateOfDiagnosis, w.billing]) {
      expect(win).toEqual({ min: '1900-01-01', max: '2026-11-21' });
    }
  });
  it('subsequent order collection: 3 months back to 3 months ahead', () => {
    expect(w.subsequentOrderCollection).toEqual({ min: '2026-08-21', max: '2027-02-21' });
  });
});
