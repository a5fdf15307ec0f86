import type { ReactNode } from 'react';
import { Box, Chip, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { useTranslate } from 'react-admin';
import { LegalLinks } from '../layout/Footer';
import { LanguageMenu } from '../layout/LanguageMenu';
import { Logo } from '../layout/Logo';
import { MaintenanceBanner } from '../layout/MaintenanceBanner';
import { BRAND } from '../theme';

/**
 * The frame of the pages outside the shell (login, forgot and reset password, maintenance): a brand panel on the
 * left, the page's card on the right, the language choice and the legal links.
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', bgcolor: 'background.default' }}>
      <Box
        sx={{
          width: { md: '42%', lg: '40%' },
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: '#fff',
          background: `radial-gradient(circle at 20% 15%, rgba(255,255,255,0.10) 0, transparent 45%), linear-gradient(160deg, ${BRAND.green} 0%, ${BRAND.greenDark} 60%, #0d3f28 100%)`,
        }}
      >
        <Logo inverse size={34} />
        <Box>
          <Typography sx={{ fontSize: 13, letterSpacing: 3, fontWeight: 600, opacity: 0.85, mb: 1.5 }}>
            {translate('app.header.tagline')}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
            <Typography variant="h1" sx={{ fontSize: 38, fontWeight: 700 }}>
              {translate('app.name')}
            </Typography>
            <Chip
              label={translate('app.header.beta')}
              size="small"
              sx={{
                bgcolor: 'rgba(255,255,255,0.18)',
                color: '#fff',
                fontWeight: 700,
                textTransform: 'uppercase',
              }}
            />
          </Box>
          <Typography sx={{ mt: 1.5, fontSize: 17, opacity: 0.9, maxWidth: 420 }}>
            {translate('app.login.subtitle')}
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, mt: 4, mb: 0 }}>
            {(['order', 'track', 'message'] as const).map((k) => (
              <Box component="li" key={k} sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 1.5 }}>
                <CheckCircleOutlineIcon sx={{ fontSize: 20, color: '#9fd8b8' }} />
                <Typography sx={{ fontSize: 15, opacity: 0.92 }}>
                  {translate(`app.login.features.${k}`)}
                </Typography>
              </Box>
            ))}
          </Box>
        </Box>
        <Typography variant="caption" sx={{ opacity: 0.75 }}>
          {translate('app.footer.copyright', { year: new Date().getFullYear() })}
        </Typography>
      </Box>
      <Box sx={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <MaintenanceBanner />
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', px: 3, pt: 2 }}>
          <Box sx={{ display: { xs: 'block', md: 'none' } }}>
            <Logo size={28} />
          </Box>
          <Box sx={{ flex: 1 }} />
          <LanguageMenu color="primary" />
        </Box>
        <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', px: 3, py: 4 }}>
          <Box sx={{ width: '100%', maxWidth: 420 }}>{children}</Box>
        </Box>
        <LegalLinks sx={{ display: 'flex', justifyContent: 'center', gap: 3, pb: 3 }} />
      </Box>
    </Box>
  );
}
