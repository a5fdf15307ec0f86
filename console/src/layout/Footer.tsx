import { Box, Link, Typography, type SxProps, type Theme } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { CLIENT_SERVICES } from '../buildInfo';

/** Footer: copyright with the current year, Terms & Conditions and the external privacy policy. */
export function Footer() {
  const translate = useTranslate();
  return (
    <Box
      component="footer"
      sx={{
        px: 4,
        py: 1.75,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        flexWrap: 'wrap',
        gap: 1,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      <Typography variant="caption" color="text.secondary" data-testid="copyright">
        {translate('app.footer.copyright', { year: new Date().getFullYear() })}
      </Typography>
      <LegalLinks sx={{ display: 'flex', gap: 3 }} />
    </Box>
  );
}

/** Terms & Conditions (in the app) and the external privacy policy: the shell's footer and the public pages. */
export function LegalLinks({ sx }: { sx: SxProps<Theme> }) {
  const translate = useTranslate();
  return (
    <Box sx={sx}>
      <Link component={RouterLink} to="/tac" variant="caption" underline="hover">
        {translate('app.footer.terms')}
      </Link>
      <Link
        href={CLIENT_SERVICES.privacyUrl}
        target="_blank"
        rel="noopener noreferrer"
        variant="caption"
        underline="hover"
      >
        {translate('app.footer.privacy')}
      </Link>
    </Box>
  );
}
