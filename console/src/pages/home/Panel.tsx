import type { ReactNode } from 'react';
import { Box, ButtonBase, Paper, Typography } from '@mui/material';

/** A titled dashboard panel. */
export function Panel({
  title,
  children,
  testId,
  action,
}: {
  title: ReactNode;
  children: ReactNode;
  testId?: string;
  /** a control at the right of the title (a filter) */
  action?: ReactNode;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, height: '100%' }} data-testid={testId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
        <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600, flex: 1, whiteSpace: 'nowrap' }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

/** A counter: the number and its label; clickable when it has somewhere to go and is not zero. */
export function ScoreBox({
  label,
  count,
  onClick,
  testId,
}: {
  label: string;
  count: number | undefined;
  onClick?: () => void;
  testId?: string;
}) {
  const clickable = Boolean(onClick) && Boolean(count);
  return (
    <ButtonBase
      disabled={!clickable}
      onClick={onClick}
      data-testid={testId}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        textAlign: 'left',
        p: 1.5,
        minHeight: 84,
        borderRadius: 1.5,
        border: 1,
        borderColor: count ? 'primary.light' : 'divider',
        bgcolor: count ? 'rgba(30,125,79,0.06)' : 'grey.50',
        transition: 'box-shadow .15s, border-color .15s',
        '&:hover': clickable ? { boxShadow: 2, borderColor: 'primary.main' } : undefined,
      }}
    >
      <Typography
        sx={{
          fontSize: 28,
          fontWeight: 700,
          lineHeight: 1.1,
          color: count ? 'primary.dark' : 'text.disabled',
        }}
      >
        {count ?? 0}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, fontSize: 12.5, lineHeight: 1.3 }}>
        {label}
      </Typography>
    </ButtonBase>
  );
}

/** The score boxes' grid. */
export const grid = (min: number) => ({
  display: 'grid',
  gap: 1.25,
  // at most the panel's width: two boxes of `min` do not fit a phone's panel, one does
  gridTemplateColumns: `repeat(auto-fill, minmax(min(${min}px, 100%), 1fr))`,
});
