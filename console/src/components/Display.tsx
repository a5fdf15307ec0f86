import type { ReactNode } from 'react';
import { Box, Tooltip } from '@mui/material';
import { formatDate, formatDateTime, formatPhone, truncate, type DateInput } from './format';

/** Tooltips open after 1000 ms (spec 2 section 9). */
export const TOOLTIP_DELAY_MS = 1000;

export interface TruncateProps {
  text: string | null | undefined;
  /** characters kept; spec: list names 40, cells and comments 30, sample names 25 */
  max?: number;
}

/** Text cut to `max` characters with "..."; the whole text in a tooltip after 1000 ms. */
export function Truncate({ text, max = 30 }: TruncateProps) {
  const cut = truncate(text, max);
  if (!cut.truncated) return <>{cut.text}</>;
  return (
    <Tooltip title={text} enterDelay={TOOLTIP_DELAY_MS} enterNextDelay={TOOLTIP_DELAY_MS}>
      <Box component="span" tabIndex={0}>
        {cut.text}
      </Box>
    </Tooltip>
  );
}

/** A tooltip with the spec's 1000 ms delay around any element. */
export function DelayedTooltip({ title, children }: { title: ReactNode; children: React.ReactElement }) {
  return (
    <Tooltip title={title} enterDelay={TOOLTIP_DELAY_MS} enterNextDelay={TOOLTIP_DELAY_MS}>
      {children}
    </Tooltip>
  );
}

/** MM/DD/YYYY, or MM/DD/YYYY hh:mm a with `withTime`. */
export function DateText({ value, withTime = false }: { value: DateInput; withTime?: boolean }) {
  return <>{withTime ? formatDateTime(value) : formatDate(value)}</>;
}

/** (xxx) xxx-xxxx */
export function PhoneText({ value }: { value: string | number | null | undefined }) {
  return <>{formatPhone(value)}</>;
}
