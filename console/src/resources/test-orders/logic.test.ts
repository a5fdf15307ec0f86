import { describe, expect, it } from 'vitest';
import {
  dayBoundary,
  dayToUs,
  initialTestsState,
  limsUrl,
  opensOnCounter,
  testsBaseFilter,
  usDateToDay,
} from './logic';

describe('tests list state', () => {
  it('takes the status and range the home counters send, ignores the rest', () => {
    expect(initialTestsState({ testStatus: 'IN_PROGRESS', dateRange: { start: 1, end: 2 } })).toEqual({
      status: 'IN_PROGRESS',
      range: { start: 1, end: 2 },
    });
    expect(initialTestsState(null)).toEqual({ status: null, range: { start: null, end: null } });
    expect(initialTestsState({ testStatus: 5, dateRange: { start: 'x' } })).toEqual({
      status: null,
      range: { start: null, end: null },
    });
  });

  it('excludes TEST_SELECTED by default and sends the Ordered range as between on createdOn', () => {
    expect(testsBaseFilter(null, { start: null, end: null })).toEqual({ status: '!in(TEST_SELECTED)' });
    expect(testsBaseFilter('REPORT_COMPLETE', { start: 10, end: 20 })).toEqual({
      status: ['REPORT_COMPLETE'],
      createdOn: 'between(10,20)',
    });
  });

  it('reads day boundaries and US dates', () => {
    expect(dayBoundary('2026-02-30', 'start')).not.toBeNull(); // Date rolls over; the input never sends it
    expect(dayBoundary('nope', 'start')).toBeNull();
    expect(dayBoundary('2026-11-23', 'end')! - dayBoundary('2026-11-23', 'start')!).toBe(86_399_999);
    expect(usDateToDay('12/01/2026')).toBe('2026-12-01');
    expect(usDateToDay('02/30/2026')).toBeNull();
    expect(usDateToDay('2026-12-01')).toBeNull();
    expect(dayToUs('2026-12-01')).toBe('12/01/2026');
    expect(dayToUs(null)).toBe('');
  });

  it('builds the LIMS link', () => {
    expect(limsUrl('LP 1', 'https://lims/p/{id}')).toBe('https://lims/p/LP%201');
  });
});

describe('opensOnCounter: a home counter opens the tests on what it counted', () => {
  it('a status or a date range from the dashboard: no remembered filters on this visit', () => {
    expect(opensOnCounter(initialTestsState({ testStatus: 'IN_PROGRESS' }))).toBe(true);
    expect(opensOnCounter(initialTestsState({ dateRange: { start: 1, end: 2 } }))).toBe(true);
  });
  it('opened from the menu: the remembered filters apply', () => {
    expect(opensOnCounter(initialTestsState(undefined))).toBe(false);
  });
});
