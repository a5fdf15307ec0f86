import { useEffect, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { useDataProvider, useLogout, useNotify } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { Footer } from './Footer';
import { Header } from './Header';
import { useMaintenance } from './MaintenanceContext';
import { API } from '@onco/domain';

/** The signed-in shell around every screen; when a maintenance window begins, the user is logged out. */
export function ShellLayout({ children }: { children?: ReactNode }) {
  const { active } = useMaintenance();
  const logout = useLogout();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  // the session check when the shell opens: a session the server no longer accepts ends here (401 → /login)
  useEffect(() => {
    dataProvider.call({ path: `${API.uam}/session` }).catch(() => undefined);
  }, [dataProvider]);
  useEffect(() => {
    if (!active) return;
    void logout({}, '/login', false);
    notify('app.maintenance.loggedOut', { type: 'info' });
  }, [active, logout, notify]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Header />
      <Box component="main" id="main-content" sx={{ flex: 1, px: { xs: 2, md: 4 }, py: 3, minWidth: 0 }}>
        {children}
      </Box>
      <Footer />
    </Box>
  );
}
