import { useCallback } from 'react';
import { formatDuration, type DurationUnit, type FormattedDuration } from '@onco/domain';
import { useT } from './useT';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/**
 * A duration as text (spec 3 section 9.1: months, weeks, days, hours, minutes), from @onco/domain's split:
 * "1 month 2 weeks 1 day", "1 个月 2 周 1 天", "less than a minute"; empty for no value. The unit labels are the
 * building blocks' `duration.*` texts (lists.en.ts, lists.zh.ts), one and other forms chosen here.
 */
export function durationText(d: FormattedDuration | null, t: Translate): string {
  if (!d) return '';
  if (d.lessThan) return t(`duration.lessThan.${d.lessThan}`);
  return d.terms.map(({ unit, n }) => t(`duration.${unit}.${n === 1 ? 'one' : 'other'}`, { n })).join(' ');
}

/** `(ms, smallest?) => text` in the user's language (see durationText). */
export function useDurationText() {
  const t = useT();
  return useCallback(
    (ms: number | null | undefined, smallest?: DurationUnit) =>
      durationText(formatDuration(ms, { smallest }), t),
    [t],
  );
}
