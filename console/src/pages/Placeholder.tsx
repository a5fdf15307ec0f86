import { Box, Paper, Typography } from '@mui/material';
import ConstructionOutlinedIcon from '@mui/icons-material/ConstructionOutlined';
import { useParams } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { PageHeader } from './PageHeader';

/** A screen that a later issue builds: its route and menu entry exist already. */
export function Placeholder({ menu, detail }: { menu: string; detail?: 'order' | 'test' | 'patient' }) {
  const translate = useTranslate();
  const { id } = useParams();
  const name = translate(`app.menu.${menu}`);
  return (
    <Box data-testid={`placeholder-${detail ?? menu}`}>
      <PageHeader title={detail ? translate(`app.pages.${detail}`, { id }) : name} />
      <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
        <ConstructionOutlinedIcon sx={{ fontSize: 48, color: 'text.disabled', mb: 1 }} />
        <Typography variant="h4" sx={{ mb: 0.5 }}>
          {translate('app.pages.comingSoon')}
        </Typography>
        <Typography color="text.secondary">{translate('app.pages.comingSoonText', { name })}</Typography>
      </Paper>
    </Box>
  );
}
