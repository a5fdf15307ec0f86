import { Box, Card, CardActionArea, Paper, Typography } from '@mui/material';
import AssignmentOutlinedIcon from '@mui/icons-material/AssignmentOutlined';
import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import Inventory2OutlinedIcon from '@mui/icons-material/Inventory2Outlined';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';
import ReceiptLongOutlinedIcon from '@mui/icons-material/ReceiptLongOutlined';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import CloudUploadOutlinedIcon from '@mui/icons-material/CloudUploadOutlined';
import ManageAccountsOutlinedIcon from '@mui/icons-material/ManageAccountsOutlined';
import PolicyOutlinedIcon from '@mui/icons-material/PolicyOutlined';
import { useNavigate } from 'react-router-dom';
import { usePermissions, useTranslate } from 'react-admin';
import { MENU, rememberActiveMenu, type MenuKey } from '../layout/menu';
import { readSession } from '../providers/session';

const ICONS: Partial<Record<MenuKey, typeof AssignmentOutlinedIcon>> = {
  orders: AssignmentOutlinedIcon,
  patients: PeopleAltOutlinedIcon,
  kits: Inventory2OutlinedIcon,
  tests: ScienceOutlinedIcon,
  billing: ReceiptLongOutlinedIcon,
  messages: ForumOutlinedIcon,
  box: CloudUploadOutlinedIcon,
  users: ManageAccountsOutlinedIcon,
  audit: PolicyOutlinedIcon,
};

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
        sx={{ p: 4, mb: 3, background: 'linear-gradient(120deg, #ffffff 0%, #eef7f1 100%)' }}
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
        {entries.map((m) => {
          const Icon = ICONS[m.key] ?? AssignmentOutlinedIcon;
          return (
            <Card key={m.key} sx={{ transition: 'box-shadow .15s', '&:hover': { boxShadow: 3 } }}>
              <CardActionArea
                sx={{
                  p: 2.5,
                  height: '100%',
                  display: 'flex',
                  alignItems: 'flex-start',
                  justifyContent: 'flex-start',
                  gap: 2,
                }}
                onClick={() => {
                  rememberActiveMenu(m.key);
                  navigate(m.path);
                }}
              >
                <Box
                  sx={{
                    width: 44,
                    height: 44,
                    borderRadius: 2,
                    bgcolor: 'rgba(30,125,79,0.10)',
                    color: 'primary.main',
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    flexShrink: 0,
                  }}
                >
                  <Icon />
                </Box>
                <Box>
                  <Typography variant="h4">{translate(`app.menu.${m.key}`)}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {translate(`app.pages.cards.${m.key}`)}
                  </Typography>
                </Box>
              </CardActionArea>
            </Card>
          );
        })}
      </Box>
    </Box>
  );
}
