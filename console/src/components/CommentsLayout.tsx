import type { ReactNode } from 'react';
import { Box } from '@mui/material';

export interface CommentsLayoutProps {
  /** the detail content: 75% of the width */
  children: ReactNode;
  /** the comment panel: 25% of the width; without it the content takes the whole width */
  comments?: ReactNode;
}

/** A detail view with comments beside it: content 75%, comments 25% (stacked on narrow screens). */
export function CommentsLayout({ children, comments }: CommentsLayoutProps) {
  if (!comments) return <Box>{children}</Box>;
  return (
    <Box sx={{ display: 'flex', flexDirection: { xs: 'column', md: 'row' }, gap: 2, alignItems: 'stretch' }}>
      <Box sx={{ flex: { md: '0 0 calc(75% - 8px)' }, minWidth: 0 }} data-testid="comments-layout-content">
        {children}
      </Box>
      <Box
        component="aside"
        sx={{ flex: { md: '0 0 calc(25% - 8px)' }, minWidth: 0 }}
        data-testid="comments-layout-comments"
      >
        {comments}
      </Box>
    </Box>
  );
}
