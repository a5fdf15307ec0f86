import { useState } from 'react';
import { Box, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { BRAND } from '../theme';
import { ContactDialog } from './ContactDialog';
import { LanguageMenu } from './LanguageMenu';
import { Logo } from './Logo';
import { MaintenanceBanner } from './MaintenanceBanner';
import { ProfileMenu } from './ProfileMenu';
import { TopMenu } from './TopMenu';

/** The page header: brand, tagline and beta label; language, help and profile; the top menu; the banner. */
export function Header() {
  const translate = useTranslate();
  const [contact, setContact] = useState(false);
  return (
    <Box component="header" sx={{ position: 'sticky', top: 0, zIndex: 1100 }}>
      <Box
        sx={{
          height: 56,
          px: { xs: 2, md: 4 },
          display: 'flex',
          alignItems: 'center',
          gap: { xs: 0.75, sm: 2 },
          color: '#fff',
          background: `linear-gradient(90deg, ${BRAND.greenDark} 0%, ${BRAND.green} 100%)`,
        }}
      >
        <Box component={RouterLink} to="/home" sx={{ textDecoration: 'none', display: 'flex' }}>
          <Logo inverse size={28} />
        </Box>
        <Box
          sx={{
            width: '1px',
            height: 24,
            bgcolor: 'rgba(255,255,255,0.35)',
            display: { xs: 'none', sm: 'block' },
          }}
        />
        <Typography
          data-testid="tagline"
          sx={{
            fontSize: 12,
            letterSpacing: 2.4,
            fontWeight: 600,
            opacity: 0.92,
            display: { xs: 'none', sm: 'block' },
          }}
        >
          {translate('app.header.tagline')}
        </Typography>
        <Chip
          label={translate('app.header.beta')}
          size="small"
          data-testid="beta-label"
          sx={{
            height: 20,
            fontSize: 11,
            fontWeight: 700,
            letterSpacing: 0.5,
            textTransform: 'uppercase',
            color: BRAND.greenDark,
            bgcolor: '#d9f2e3',
          }}
        />
        <Box sx={{ flex: 1 }} />
        <LanguageMenu />
        <Tooltip title={translate('app.header.help')}>
          <IconButton
            color="inherit"
            onClick={() => setContact(true)}
            data-testid="help-button"
            aria-label={translate('app.header.help')}
          >
            <HelpOutlineIcon />
          </IconButton>
        </Tooltip>
        <ProfileMenu />
      </Box>
      <Box
        sx={{
          height: 48,
          px: { xs: 1, md: 3 },
          bgcolor: 'background.paper',
          borderBottom: 1,
          borderColor: 'divider',
          boxShadow: '0 1px 2px rgba(16,24,40,0.04)',
        }}
      >
        <TopMenu />
      </Box>
      <MaintenanceBanner />
      <ContactDialog open={contact} onClose={() => setContact(false)} />
    </Box>
  );
}
