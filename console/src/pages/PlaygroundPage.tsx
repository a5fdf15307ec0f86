import { Box, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Logo } from '../layout/Logo';

/** /playground: the placeholder page outside the shell (spec 3 section 2.1). */
export function PlaygroundPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default', p: 4 }} data-testid="playground">
      <Logo size={28} />
      <Paper variant="outlined" sx={{ mt: 3, p: 4, maxWidth: 640 }}>
        <Typography variant="h2" sx={{ mb: 1 }}>
          {translate('app.pages.playground')}
        </Typography>
        <Typography color="text.secondary">{translate('app.pages.playgroundText')}</Typography>
      </Paper>
    </Box>
  );
}
