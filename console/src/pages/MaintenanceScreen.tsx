import { Box, Button, Paper, Typography } from '@mui/material';
import BuildCircleOutlinedIcon from '@mui/icons-material/BuildCircleOutlined';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { useLocaleState, useTranslate } from 'react-admin';
import { CLIENT_SERVICES } from '../buildInfo';
import { formatDay, formatTime, timeZoneName } from '../layout/format';
import { LanguageMenu } from '../layout/LanguageMenu';
import { Logo } from '../layout/Logo';
import type { MaintenanceWindow } from '../providers/dataProvider';

/** Replaces the login page while a maintenance window is in progress (spec 3 sections 2.5 and 4.4). */
export function MaintenanceScreen({ window: w }: { window: MaintenanceWindow }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const tz = timeZoneName(w.endTime, locale);
  return (
    <Box
      data-testid="maintenance-screen"
      sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'flex', flexDirection: 'column' }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', px: 4, py: 2 }}>
        <Logo size={30} />
        <LanguageMenu color="primary" />
      </Box>
      <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', p: 3 }}>
        <Paper variant="outlined" sx={{ maxWidth: 560, width: '100%', p: 5, textAlign: 'center' }}>
          <BuildCircleOutlinedIcon sx={{ fontSize: 64, color: 'primary.main', mb: 2 }} />
          <Typography variant="h2" sx={{ mb: 1.5 }}>
            {w.title}
          </Typography>
          <Typography sx={{ fontSize: 17, mb: 1.5 }} data-testid="maintenance-text">
            {translate('app.maintenance.screen')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.maintenance.until', {
              end: `${formatDay(w.endTime, locale)} ${formatTime(w.endTime)}${tz ? ` ${tz}` : ''}`,
            })}
          </Typography>
          <Button
            variant="contained"
            size="large"
            startIcon={<FileDownloadOutlinedIcon />}
            href={CLIENT_SERVICES.trfDocument}
            download
            data-testid="download-trf"
          >
            {translate('app.maintenance.download')}
          </Button>
        </Paper>
      </Box>
    </Box>
  );
}
