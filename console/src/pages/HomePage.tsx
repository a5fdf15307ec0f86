import { Box, Card, CardActionArea, Paper, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { usePermissions, useTranslate } from 'react-admin';
import { MENU, rememberActiveMenu } from '../layout/menu';
import { readSession } from '../providers/session';

/** The home dashboard: a greeting and the screens the user may open. */
export function HomePage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions = [] } = usePermissions<string[]>();
  const session = readSession();
  const entries = MENU.filter((m) => m.key !== 'home' && permissions.includes(m.permission));
  return (
    <Box data-testid="home-page">
      <Paper
        variant="outlined"
        sx={{
          p: 4,
          mb: 3,
          background: 'linear-gradient(120deg, #ffffff 0%, #eef7f1 100%)',
        }}
      >
        <Typography variant="h1" data-testid="page-title">
          {translate('app.pages.welcome', { name: session?.firstName ?? '' })}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {translate('app.pages.homeText')}
        </Typography>
      </Paper>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
        }}
      >
        {entries.map((m) => (
          <Card key={m.key}>
            <CardActionArea
              sx={{ p: 2.5, height: '100%' }}
              onClick={() => {
                rememberActiveMenu(m.key);
                navigate(m.path);
              }}
            >
              <Typography variant="h4" color="primary">
                {translate(`app.menu.${m.key}`)}
              </Typography>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
