import { LinearProgress } from '@mui/material';
import { lazy, Suspense, type ComponentType } from 'react';
import { Admin, CustomRoutes, Resource, localStorageStore, usePermissions } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { loadOrReload } from './chunkReload';
import { ToastNotification } from './components/Toast';
import { createI18nProvider } from './i18n';
import { MaintenanceProvider } from './layout/MaintenanceContext';
import { MENU } from './layout/menu';
import { ShellLayout } from './layout/ShellLayout';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage';
import { LoginPage } from './pages/LoginPage';
import { Placeholder } from './pages/Placeholder';
import { PlaygroundPage } from './pages/PlaygroundPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { TermsPage } from './pages/TermsPage';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { usersResource } from './resources';
import { SCREEN_MESSAGES } from './screens';
import { theme } from './theme';

/**
 * A screen loaded on first use (its own chunk: the first load stays small), a thin progress bar meanwhile. A chunk
 * gone after a newer deploy reloads the page once (chunkReload.ts) instead of failing the whole app.
 */
function screen(load: () => Promise<{ default: ComponentType }>) {
  const Lazy = lazy(() => loadOrReload(load));
  return function Screen() {
    return (
      <Suspense fallback={<LinearProgress sx={{ m: 2 }} />}>
        <Lazy />
      </Suspense>
    );
  };
}
const i18nProvider = createI18nProvider(SCREEN_MESSAGES);

const HomePage = screen(() => import('./pages/home'));
const OrdersListPage = screen(() => import('./resources/orders/list'));
const OrderWizardPage = screen(() => import('./resources/orders/wizard'));
const OrderSummaryPage = screen(() => import('./resources/orders/summary'));
const TestsListPage = screen(() => import('./resources/test-orders/TestsListPage'));
const TestDetailPage = screen(() => import('./resources/test-orders/TestDetailPage'));
const BillingListPage = screen(() => import('./resources/billing/BillingListPage'));
const KitsPage = screen(() => import('./resources/kits/KitsPage'));
const MessagesPage = screen(() => import('./resources/messages/MessagesPage'));
const BoxPage = screen(() => import('./resources/box/BoxPage'));
const PatientsListPage = screen(() => import('./resources/patients/PatientsListPage'));
const PatientDetailPage = screen(() => import('./resources/patients/PatientDetailPage'));
const AuditPage = screen(() => import('./resources/audit/AuditPage'));

/** Toasts top right, closing after 18 s (components/Toast.tsx), below the header so the profile menu stays usable. */
const Toasts = () => <ToastNotification sx={{ top: { xs: 112, sm: 112 } }} />;

/**
 * Unknown paths, and pages the user may not open, go to /home (spec 3 section 2.1); a user without the home
 * page goes to the first menu entry they have.
 */
function ToHome() {
  const { permissions, isPending } = usePermissions<string[]>();
  if (isPending) return null;
  const first = MENU.find((m) => permissions?.includes(m.permission));
  return first ? <Navigate to={first.path} replace /> : <Placeholder menu="home" />;
}

/** `/`: the home dashboard. */
function Root() {
  const { permissions, isPending } = usePermissions<string[]>();
  if (isPending) return null;
  return permissions?.includes('VIEW_HOME_PAGE') ? <HomePage /> : <ToHome />;
}

/** The screens inside the shell (spec 3 section 2.1), each shown only with VIEW_{NAME}_PAGE. */
const ROUTES: Array<{ path: string; permission: string; element: React.ReactNode }> = [
  { path: '/home', permission: 'VIEW_HOME_PAGE', element: <HomePage /> },
  { path: '/orders', permission: 'VIEW_ORDERS_PAGE', element: <OrdersListPage /> },
  { path: '/kits', permission: 'VIEW_KITS_PAGE', element: <KitsPage /> },
  // one route for /order/new and /order/{id}: the wizard stays mounted when a new draft gets its id, and opens
  // the summary itself when the requisition is not a draft (the summary sends a draft back here)
  { path: '/order/:id', permission: 'VIEW_ORDER_PAGE', element: <OrderWizardPage /> },
  { path: '/order/:id/summary', permission: 'VIEW_ORDER_PAGE', element: <OrderSummaryPage /> },
  { path: '/order/:id/summary/:tab', permission: 'VIEW_ORDER_PAGE', element: <OrderSummaryPage /> },
  { path: '/tests', permission: 'VIEW_TESTS_PAGE', element: <TestsListPage /> },
  { path: '/billing', permission: 'VIEW_BILLING_PAGE', element: <BillingListPage /> },
  { path: '/box', permission: 'VIEW_BOX_PAGE', element: <BoxPage /> },
  { path: '/test/:id', permission: 'VIEW_TEST_PAGE', element: <TestDetailPage /> },
  { path: '/patient/:id', permission: 'VIEW_PATIENT_PAGE', element: <PatientDetailPage /> },
  { path: '/messages', permission: 'VIEW_MESSAGES_PAGE', element: <MessagesPage /> },
  { path: '/patients', permission: 'VIEW_PATIENTS_PAGE', element: <PatientsListPage /> },
  { path: '/audit', permission: 'VIEW_AUDIT_TRAIL', element: <AuditPage /> },
];

/** The console: providers, shell, public pages and the routes by permission. Screens live in pages/ and resources/. */
export function App() {
  return (
    <MaintenanceProvider>
      <Admin
        title="Clinical Portal"
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        store={localStorageStore('1', 'oncotrf')}
        theme={theme}
        layout={ShellLayout}
        loginPage={LoginPage}
        dashboard={Root}
        catchAll={ToHome}
        notification={Toasts}
        requireAuth
        disableTelemetry
      >
        {(permissions: string[] = []) => (
          <>
            <CustomRoutes noLayout>
              <Route path="/tac" element={<TermsPage />} />
              <Route path="/playground" element={<PlaygroundPage />} />
              <Route path="/forgot-password" element={<ForgotPasswordPage />} />
              <Route path="/reset-password" element={<ResetPasswordPage />} />
            </CustomRoutes>
            <CustomRoutes>
              {ROUTES.filter((r) => permissions.includes(r.permission)).map((r) => (
                <Route key={r.path} path={r.path} element={r.element} />
              ))}
            </CustomRoutes>
            {permissions.includes('VIEW_USERS_PAGE') ? <Resource {...usersResource} /> : null}
          </>
        )}
      </Admin>
    </MaintenanceProvider>
  );
}
