import { useState } from 'react';
import { Avatar, Box, Button, Divider, ListItemIcon, Menu, MenuItem, Typography } from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import LockResetIcon from '@mui/icons-material/LockReset';
import LogoutIcon from '@mui/icons-material/Logout';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import NewReleasesOutlinedIcon from '@mui/icons-material/NewReleasesOutlined';
import { useAuthProvider, useNotify, usePermissions, useResetStore, useTranslate } from 'react-admin';
import EventBusyOutlinedIcon from '@mui/icons-material/EventBusyOutlined';
import ViewListOutlinedIcon from '@mui/icons-material/ViewListOutlined';
import { clearUserPreferences } from '../providers/authProvider';
import { request } from '../providers/http';
import { readSession, shortName } from '../providers/session';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { AboutDialog } from './AboutDialog';
import { MaintenanceAdminDialog } from './MaintenanceAdminDialog';
import { ReleaseNotesDialog } from './ReleaseNotesDialog';
import { API } from '@onco/domain';

/**
 * The profile menu: first name and last initial; Change Password; Maintenance and Queues (each with its
 * permission); About and Release Notes; Log out (clears the remembered menu, the session and the language, then
 * goes to /login).
 */
export function ProfileMenu() {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const resetStore = useResetStore();
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<'password' | 'about' | 'notes' | 'maintenance' | null>(null);
  const { permissions = [] } = usePermissions<string[]>();
  const session = readSession();
  if (!session) return null;
  const name = shortName(session);
  /**
   * The read-only queue dashboard (operators, VIEW_OPERATIONS) in a new tab: the server sets the dashboard's own
   * cookie first (a tab cannot carry the console's bearer token). The tab is opened at the click, so the browser
   * does not block it as a pop-up, and sent to the dashboard once the cookie is set.
   */
  const openQueueBoard = () => {
    setAnchor(null);
    const tab = window.open('', '_blank');
    request<{ url: string }>(`${API.portal}/operations/queueBoard`, { method: 'POST' })
      .then(({ url }) => {
        if (tab) tab.location.href = url;
        else window.location.assign(url);
      })
      .catch((err: Error) => {
        tab?.close();
        notify(err.message, { type: 'error' });
      });
  };
  const open = (d: typeof dialog) => () => {
    setAnchor(null);
    setDialog(d);
  };
  return (
    <>
      <Button
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        endIcon={<KeyboardArrowDownIcon />}
        data-testid="profile-menu"
        sx={{ fontWeight: 500 }}
      >
        <Avatar
          sx={{
            width: 28,
            height: 28,
            fontSize: 12,
            fontWeight: 700,
            mr: 1,
            bgcolor: '#ffffff',
            color: 'primary.dark',
          }}
        >
          {(session.firstName[0] ?? '') + (session.lastName[0] ?? '')}
        </Avatar>
        {/* on a phone the avatar alone: the header keeps to the screen's width */}
        <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
          {name}
        </Box>
      </Button>
      <Menu
        anchorEl={anchor}
        open={!!anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 220 } } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle2">
            {session.firstName} {session.lastName}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('app.profile.signedInAs', { loginId: session.loginId })}
          </Typography>
        </Box>
        <Divider />
        <MenuItem onClick={open('password')} data-testid="menu-change-password">
          <ListItemIcon>
            <LockResetIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.profile.changePassword')}
        </MenuItem>
        {permissions.includes('CAN_MANAGE_MAINTENANCE') && (
          <MenuItem onClick={open('maintenance')} data-testid="menu-maintenance">
            <ListItemIcon>
              <EventBusyOutlinedIcon fontSize="small" />
            </ListItemIcon>
            {translate('app.maintenanceAdmin.menu')}
          </MenuItem>
        )}
        {permissions.includes('VIEW_OPERATIONS') && (
          <MenuItem onClick={openQueueBoard} data-testid="menu-queues">
            <ListItemIcon>
              <ViewListOutlinedIcon fontSize="small" />
            </ListItemIcon>
            {translate('app.profile.queues')}
          </MenuItem>
        )}
        <MenuItem onClick={open('notes')} data-testid="menu-release-notes">
          <ListItemIcon>
            <NewReleasesOutlinedIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.profile.releaseNotes')}
        </MenuItem>
        <MenuItem onClick={open('about')} data-testid="menu-about">
          <ListItemIcon>
            <InfoOutlinedIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.profile.about')}
        </MenuItem>
        <Divider />
        <MenuItem
          data-testid="menu-logout"
          onClick={() => {
            setAnchor(null);
            // Signed out by a fresh page load of /login: every record the console cached (PHI included) leaves
            // memory with it, and the language starts again from English. (react-admin's logout followed by a
            // change of language looped: ~1,800 logouts, the page frozen for ~15 s.)
            void authProvider?.logout({}).then(() => {
              resetStore();
              clearUserPreferences();
              window.location.replace('/login');
            });
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.profile.logout')}
        </MenuItem>
      </Menu>
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <AboutDialog open={dialog === 'about'} onClose={() => setDialog(null)} />
      <ReleaseNotesDialog open={dialog === 'notes'} onClose={() => setDialog(null)} />
      <MaintenanceAdminDialog open={dialog === 'maintenance'} onClose={() => setDialog(null)} />
    </>
  );
}
