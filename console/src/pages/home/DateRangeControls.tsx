import { Box, Button, TextField } from '@mui/material';
import type { DateRangeState } from './useDashboard';
import { useHomeT } from './useHomeT';

function DateField({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    />
  );
}

/** The banner's From / To date inputs and Reset. */
export function DateRangeControls({ dates }: { dates: DateRangeState }) {
  const t = useHomeT();
  return (
    <Box
      sx={{
        display: 'flex',
        gap: 1,
        alignItems: 'center',
        bgcolor: 'background.paper',
        borderRadius: 1.5,
        p: 1,
        flexWrap: 'wrap',
      }}
    >
      <DateField
        label={t('home.from')}
        value={dates.startText}
        onChange={dates.changeStart}
        testId="range-start"
      />
      <DateField label={t('home.to')} value={dates.endText} onChange={dates.changeEnd} testId="range-end" />
      <Button size="small" onClick={dates.reset}>
        {t('home.reset')}
      </Button>
    </Box>
  );
}
