import type { Dispatch, SetStateAction } from 'react';
import { Box, TextField } from '@mui/material';
import { dayBoundary, dayOf, type DayRange } from './dayRange';

/**
 * The two date inputs of a list's date-range filter (first and last day), labelled once; test ids
 * `{testId}-start` and `{testId}-end`.
 */
export function DayRangeFields({
  label,
  range,
  setRange,
  testId,
}: {
  label: string;
  range: DayRange;
  setRange: Dispatch<SetStateAction<DayRange>>;
  testId: string;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
      <TextField
        type="date"
        size="small"
        label={label}
        value={dayOf(range.start)}
        onChange={(e) => setRange((r) => ({ ...r, start: dayBoundary(e.target.value, 'start') }))}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `${testId}-start` } }}
        sx={{ width: 150 }}
      />
      <TextField
        type="date"
        size="small"
        value={dayOf(range.end)}
        onChange={(e) => setRange((r) => ({ ...r, end: dayBoundary(e.target.value, 'end') }))}
        slotProps={{ htmlInput: { 'data-testid': `${testId}-end`, 'aria-label': label } }}
        sx={{ width: 150 }}
      />
    </Box>
  );
}
