import { Box, MenuItem, Select, Typography } from '@mui/material';
import { PAGE_SIZES } from './listState';
import { useT } from './useT';

export interface PageSizeSelectProps {
  value: number;
  onChange: (perPage: number) => void;
  /** defaults to 15, 20, 30, 40, 50 */
  options?: readonly number[];
}

/** "Rows per page" choice. */
export function PageSizeSelect({ value, onChange, options = PAGE_SIZES }: PageSizeSelectProps) {
  const t = useT();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography variant="body2" color="text.secondary" noWrap>
        {t('lists.perPage')}
      </Typography>
      <Select
        size="small"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        sx={{ bgcolor: 'background.paper', '& .MuiSelect-select': { py: 0.6 } }}
        inputProps={{ 'aria-label': t('lists.perPage'), 'data-testid': 'page-size' }}
      >
        {options.map((n) => (
          <MenuItem key={n} value={n}>
            {n}
          </MenuItem>
        ))}
      </Select>
    </Box>
  );
}
