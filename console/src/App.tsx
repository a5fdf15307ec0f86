import { Admin, CustomRoutes, ListGuesser, Resource } from 'react-admin';
import { Route } from 'react-router-dom';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';

/** The console shell. Screens arrive with their issues; the users list proves the providers end to end. */
export function App() {
  return (
    <Admin dataProvider={dataProvider} authProvider={authProvider} requireAuth title="Clinical Portal">
      {(permissions: string[]) => (
        <>
          {permissions.includes('VIEW_USERS_PAGE') ? <Resource name="users" list={ListGuesser} /> : null}
          <CustomRoutes>
            <Route path="/home" element={<div style={{ padding: 24 }}>Welcome Back!</div>} />
          </CustomRoutes>
        </>
      )}
    </Admin>
  );
}
