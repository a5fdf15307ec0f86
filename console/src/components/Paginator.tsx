import { Box, Button, IconButton, Tooltip, Typography } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import KeyboardDoubleArrowLeftIcon from '@mui/icons-material/KeyboardDoubleArrowLeft';
import KeyboardDoubleArrowRightIcon from '@mui/icons-material/KeyboardDoubleArrowRight';
import { jumpPage, pageCount, pageRange, pageSlots } from './pagination';
import { useT } from './useT';

export interface PaginatorProps {
  /** 1-based */
  page: number;
  perPage: number;
  total: number;
  onChange: (page: number) => void;
}

/** "1-15 of 123" and the page slots: up to 7 with ellipses past 9 pages; double arrows jump 5 pages. */
export function Paginator({ page, perPage, total, onChange }: PaginatorProps) {
  const t = useT();
  const pages = pageCount(total, perPage);
  const { from, to } = pageRange(page, perPage, total);
  const nav = (label: string, target: number, disabled: boolean, icon: React.ReactNode) => (
    <Tooltip title={label} enterDelay={1000}>
      <span>
        <IconButton size="small" aria-label={label} disabled={disabled} onClick={() => onChange(target)}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }} data-testid="paginator">
      <Typography variant="body2" color="text.secondary" sx={{ mr: 1.5 }}>
        {t('lists.range', { from, to, total })}
      </Typography>
      {nav(
        t('lists.back5'),
        jumpPage(page, pages, -1),
        page <= 1,
        <KeyboardDoubleArrowLeftIcon fontSize="small" />,
      )}
      {nav(t('lists.previousPage'), page - 1, page <= 1, <ChevronLeftIcon fontSize="small" />)}
      {pageSlots(page, pages).map((slot) =>
        typeof slot === 'number' ? (
          <Button
            key={slot}
            size="small"
            variant={slot === page ? 'contained' : 'text'}
            color={slot === page ? 'primary' : 'inherit'}
            onClick={() => onChange(slot)}
            aria-label={t('lists.page', { n: slot })}
            aria-current={slot === page ? 'page' : undefined}
            sx={{ minWidth: 32, px: 0.75, py: 0.25, boxShadow: 'none' }}
          >
            {slot}
          </Button>
        ) : (
          <Typography key={slot} component="span" color="text.secondary" sx={{ px: 0.5 }}>
            …
          </Typography>
        ),
      )}
      {nav(t('lists.nextPage'), page + 1, page >= pages, <ChevronRightIcon fontSize="small" />)}
      {nav(
        t('lists.forward5'),
        jumpPage(page, pages, 1),
        page >= pages,
        <KeyboardDoubleArrowRightIcon fontSize="small" />,
      )}
    </Box>
  );
}
