import { describe, expect, it } from 'vitest';
import { DURATION_UNIT_MS, daysToMs, formatDuration } from './duration';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('formatDuration (months, weeks, days, hours, minutes; spec 3 section 9.1)', () => {
  it('zero is 0 of the smallest unit', () => {
    expect(formatDuration(0)).toEqual({
      parts: { months: 0, weeks: 0, days: 0, hours: 0, minutes: 0 },
      terms: [{ unit: 'minutes', n: 0 }],
      lessThan: null,
    });
    expect(formatDuration(0, { smallest: 'days' })!.terms).toEqual([{ unit: 'days', n: 0 }]);
  });

  it('under a minute is "less than" a minute: no terms, seconds dropped', () => {
    expect(formatDuration(1)).toMatchObject({ terms: [], lessThan: 'minutes' });
    expect(formatDuration(59_999)).toMatchObject({ terms: [], lessThan: 'minutes' });
    expect(formatDuration(MIN)).toMatchObject({ terms: [{ unit: 'minutes', n: 1 }], lessThan: null });
    expect(formatDuration(MIN + 59_999)!.terms).toEqual([{ unit: 'minutes', n: 1 }]);
    // under the smallest unit asked for
    expect(formatDuration(23 * HOUR + 59 * MIN, { smallest: 'days' })).toMatchObject({
      terms: [],
      lessThan: 'days',
    });
  });

  it('exactly one week is 1 week, one minute less is 6 days 23 hours 59 minutes', () => {
    expect(formatDuration(7 * DAY)!.terms).toEqual([{ unit: 'weeks', n: 1 }]);
    expect(formatDuration(7 * DAY - MIN)!.terms).toEqual([
      { unit: 'days', n: 6 },
      { unit: 'hours', n: 23 },
      { unit: 'minutes', n: 59 },
    ]);
    expect(formatDuration(7 * DAY + MIN)!.terms).toEqual([
      { unit: 'weeks', n: 1 },
      { unit: 'minutes', n: 1 },
    ]);
  });

  it('a month is 30 days: 29 days are 4 weeks 1 day, 30 days 1 month, 31 days 1 month 1 day', () => {
    expect(DURATION_UNIT_MS.months).toBe(30 * DAY);
    expect(formatDuration(29 * DAY)!.terms).toEqual([
      { unit: 'weeks', n: 4 },
      { unit: 'days', n: 1 },
    ]);
    expect(formatDuration(30 * DAY)!.terms).toEqual([{ unit: 'months', n: 1 }]);
    expect(formatDuration(31 * DAY)!.terms).toEqual([
      { unit: 'months', n: 1 },
      { unit: 'days', n: 1 },
    ]);
  });

  it('splits every unit, largest first, and leaves zero parts out of the terms', () => {
    const ms = 2 * 30 * DAY + 3 * 7 * DAY + 4 * DAY + 5 * HOUR + 6 * MIN + 7_000;
    expect(formatDuration(ms)).toEqual({
      parts: { months: 2, weeks: 3, days: 4, hours: 5, minutes: 6 },
      terms: [
        { unit: 'months', n: 2 },
        { unit: 'weeks', n: 3 },
        { unit: 'days', n: 4 },
        { unit: 'hours', n: 5 },
        { unit: 'minutes', n: 6 },
      ],
      lessThan: null,
    });
    expect(formatDuration(2 * HOUR + 5 * MIN)!.terms).toEqual([
      { unit: 'hours', n: 2 },
      { unit: 'minutes', n: 5 },
    ]);
  });

  it('a value kept in whole days (a test duration) shows down to days', () => {
    expect(formatDuration(daysToMs(45), { smallest: 'days' })!.terms).toEqual([
      { unit: 'months', n: 1 },
      { unit: 'weeks', n: 2 },
      { unit: 'days', n: 1 },
    ]);
    expect(formatDuration(daysToMs(1), { smallest: 'days' })!.terms).toEqual([{ unit: 'days', n: 1 }]);
    // finer parts are still split, but not shown
    const d = formatDuration(DAY + 3 * HOUR, { smallest: 'days' })!;
    expect(d.parts.hours).toBe(3);
    expect(d.terms).toEqual([{ unit: 'days', n: 1 }]);
  });

  it('no value is null; a negative amount reads as zero', () => {
    expect(formatDuration(null)).toBeNull();
    expect(formatDuration(undefined)).toBeNull();
    expect(formatDuration(Number.NaN)).toBeNull();
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBeNull();
    expect(formatDuration(-5 * MIN)!.terms).toEqual([{ unit: 'minutes', n: 0 }]);
  });
});
