import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** The title row of a screen inside the shell. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 2.5, gap: 2 }}>
      <Typography variant="h1" data-testid="page-title">
        {title}
      </Typography>
      {children}
    </Box>
  );
}
