import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatPhone, formatTime, truncate } from './format';

describe('display formats', () => {
  it('dates are MM/DD/YYYY and times hh:mm a', () => {
    const d = new Date(2024, 0, 5, 0, 7);
    expect(formatDate(d)).toBe('01/05/2024');
    expect(formatTime(d)).toBe('12:07 AM');
    expect(formatTime(new Date(2024, 0, 5, 13, 30))).toBe('01:30 PM');
    expect(formatTime(new Date(2024, 0, 5, 12, 0))).toBe('12:00 PM');
    expect(formatDateTime(new Date(2024, 10, 21, 9, 5))).toBe('11/21/2024 09:05 AM');
    expect(formatDate(d.getTime())).toBe('01/05/2024');
    expect(formatDate(d.toISOString())).toBe('01/05/2024');
  });

  it('empty or invalid dates give an empty string', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDateTime('')).toBe('');
  });

  it('phones are (xxx) xxx-xxxx', () => {
    expect(formatPhone('4155551234')).toBe('(415) 555-1234');
    expect(formatPhone('415-555-1234')).toBe('(415) 555-1234');
    expect(formatPhone('+1 415 555 1234')).toBe('(415) 555-1234');
    expect(formatPhone('12345')).toBe('12345');
    expect(formatPhone(null)).toBe('');
  });

  it('truncates with an ellipsis', () => {
    expect(truncate('short', 30)).toEqual({ text: 'short', truncated: false });
    const long = 'A very long account name that goes on and on';
    const t = truncate(long, 30);
    expect(t.truncated).toBe(true);
    expect(t.text.length).toBeLessThanOrEqual(30);
    expect(t.text.endsWith('...')).toBe(true);
    expect(truncate(undefined, 10).text).toBe('');
  });
});
