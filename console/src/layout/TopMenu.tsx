import { useEffect } from 'react';
import { Badge, Box, ButtonBase } from '@mui/material';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDataProvider, usePermissions, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { readSession } from '../providers/session';
import { MENU, menuFor, readActiveMenu, rememberActiveMenu } from './menu';
import { API } from '@onco/domain';

/** The top menu: entries by permission; the active entry follows the page and is remembered. */
export function TopMenu() {
  const { permissions = [] } = usePermissions<string[]>();
  const translate = useTranslate();
  const location = useLocation();
  const navigate = useNavigate();
  const fromPath = menuFor(location.pathname);
  const active = fromPath ?? readActiveMenu();
  const dp = useDataProvider<ConsoleDataProvider>();
  // the unread message threads (GET communicationCount), beside Messages; refreshed every minute and on return
  const unread = useQuery({
    queryKey: ['messages', 'communicationCount'],
    enabled: permissions.includes('VIEW_MESSAGES_PAGE'),
    refetchInterval: 60_000,
    queryFn: () =>
      dp
        .call<{ unreadMessages: number }>({ path: `${API.cns}/messages/communicationCount` })
        .then((r) => r.data.unreadMessages),
  });

  useEffect(() => {
    // not while signing out (the session is gone): Log out forgets the remembered entry
    if (fromPath && readSession()) rememberActiveMenu(fromPath);
  }, [fromPath]);

  const entries = MENU.filter((m) => permissions.includes(m.permission));
  return (
    <Box
      component="nav"
      data-testid="app-menu"
      aria-label="Main menu"
      sx={{ display: 'flex', alignItems: 'stretch', gap: 0.5, height: '100%', overflowX: 'auto' }}
    >
      {entries.map((m) => {
        const selected = active === m.key;
        return (
          <ButtonBase
            key={m.key}
            data-menu={m.key}
            aria-current={selected ? 'page' : undefined}
            onClick={() => {
              rememberActiveMenu(m.key);
              navigate(m.path);
            }}
            sx={{
              px: 1.75,
              fontSize: 14.5,
              fontWeight: selected ? 600 : 500,
              whiteSpace: 'nowrap',
              color: selected ? 'primary.main' : 'text.secondary',
              borderBottom: '3px solid',
              borderColor: selected ? 'primary.main' : 'transparent',
              borderTop: '3px solid transparent',
              transition: 'color .15s, border-color .15s',
              '&:hover': { color: 'primary.main', bgcolor: 'rgba(30,125,79,0.04)' },
            }}
          >
            {m.key === 'messages' && unread.data ? (
              <Badge
                color="primary"
                badgeContent={unread.data}
                max={99}
                data-testid="menu-unread"
                sx={{ '& .MuiBadge-badge': { right: -10, top: 2 } }}
              >
                {translate(`app.menu.${m.key}`)}
              </Badge>
            ) : (
              translate(`app.menu.${m.key}`)
            )}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
