import { describe, expect, it } from 'vitest';
import { daysToMs, formatDuration } from '@onco/domain';
import { listsEn } from '../i18n/lists.en';
import { listsZh } from '../i18n/lists.zh';
import { durationText } from './duration';
import { interpolate, lookupMessage } from './messages';

const translator =
  (messages: unknown) =>
  (key: string, values: Record<string, unknown> = {}) =>
    interpolate(lookupMessage(messages, key) ?? key, values);
const en = translator(listsEn);
const zh = translator(listsZh);
const MIN = 60_000;

describe('durations as text (en, zh-CN)', () => {
  it('names each unit, one and more, largest first', () => {
    const ms = 30 * 1440 * MIN + 7 * 1440 * MIN + 2 * 1440 * MIN + 60 * MIN + 5 * MIN;
    expect(durationText(formatDuration(ms), en)).toBe('1 month 1 week 2 days 1 hour 5 minutes');
    expect(durationText(formatDuration(ms), zh)).toBe('1 个月 1 周 2 天 1 小时 5 分钟');
  });

  it('zero, under a minute and a whole-day test duration', () => {
    expect(durationText(formatDuration(0), en)).toBe('0 minutes');
    expect(durationText(formatDuration(30_000), en)).toBe('less than a minute');
    expect(durationText(formatDuration(30_000), zh)).toBe('不到 1 分钟');
    expect(durationText(formatDuration(daysToMs(45), { smallest: 'days' }), en)).toBe(
      '1 month 2 weeks 1 day',
    );
    expect(durationText(formatDuration(daysToMs(0), { smallest: 'days' }), en)).toBe('0 days');
    expect(durationText(formatDuration(daysToMs(0), { smallest: 'days' }), zh)).toBe('0 天');
    expect(durationText(null, en)).toBe('');
  });
});
