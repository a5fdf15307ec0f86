import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

export interface BannerProps {
  /** the page's banner title (e.g. "Users") */
  title: ReactNode;
  subtitle?: ReactNode;
  /** shown at the right of the banner (e.g. a primary action) */
  right?: ReactNode;
}

/** The page banner at the top of every list page: title, optional subtitle and right-hand content. */
export function Banner({ title, subtitle, right }: BannerProps) {
  return (
    <Box
      component="header"
      sx={(theme) => ({
        display: 'flex',
        alignItems: 'center',
        // on a narrow screen the right-hand content goes under the title instead of squeezing it
        flexWrap: 'wrap',
        gap: 2,
        px: 3,
        py: 2.25,
        mb: 2,
        borderRadius: 2,
        color: theme.palette.primary.contrastText,
        background: `linear-gradient(100deg, ${theme.palette.primary.dark} 0%, ${theme.palette.primary.main} 60%, ${theme.palette.secondary.main} 140%)`,
        boxShadow: '0 1px 3px rgba(16, 42, 30, 0.18)',
      })}
    >
      <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600, letterSpacing: 0.2 }}>
          {title}
        </Typography>
        {subtitle ? (
          <Typography variant="body2" sx={{ opacity: 0.85, mt: 0.25 }}>
            {subtitle}
          </Typography>
        ) : null}
      </Box>
      {right}
    </Box>
  );
}
