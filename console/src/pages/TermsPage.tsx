import { Box, Button, Paper, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { CLIENT_SERVICES } from '../buildInfo';
import { LanguageMenu } from '../layout/LanguageMenu';
import { Logo } from '../layout/Logo';

const CERTIFICATIONS = ['personal', 'confidential', 'hipaa', 'report', 'abuse', 'download'] as const;

/** /tac: the public Provider & Sponsor Terms of Use with its numbered certifications (spec 3 section 2.6). */
export function TermsPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }} data-testid="terms-page">
      <Box
        sx={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          px: 4,
          py: 1.5,
          bgcolor: 'background.paper',
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Logo size={28} />
        <LanguageMenu color="primary" />
      </Box>
      <Box sx={{ maxWidth: 860, mx: 'auto', px: 3, py: 5 }}>
        <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(-1)} sx={{ mb: 2 }}>
          {translate('app.tac.back')}
        </Button>
        <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 } }}>
          <Typography variant="h1" sx={{ mb: 2 }}>
            {translate('app.tac.title')}
          </Typography>
          <Typography sx={{ mb: 2, lineHeight: 1.7 }}>{translate('app.tac.intro')}</Typography>
          <Box component="ol" sx={{ pl: 3, m: 0 }} data-testid="certifications">
            {CERTIFICATIONS.map((k) => (
              <Box component="li" key={k} sx={{ mb: 1.5, pl: 1, lineHeight: 1.7 }}>
                {translate(`app.tac.items.${k}`)}
              </Box>
            ))}
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
            {translate('app.tac.contact', { phone: CLIENT_SERVICES.phone, email: CLIENT_SERVICES.email })}
          </Typography>
        </Paper>
      </Box>
    </Box>
  );
}
