import { useEffect, useMemo } from 'react';
import { Alert, Box, LinearProgress } from '@mui/material';
import { usePermissions } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Banner, useToast } from '../../components';
import { readSession } from '../../providers/session';
import { rememberActiveMenu } from '../../layout/menu';
import { DateRangeControls } from './DateRangeControls';
import { RecentTestsPanel } from './RecentTestsPanel';
import { ReviewPanels, TestStatusPanel } from './ReviewPanels';
import { CommunicationsPanel, TrfPanel, TrfReviewPanel } from './SidePanels';
import { useDashboard, useDateRange, useDraftCount, type GoTo } from './useDashboard';
import { useHomeT } from './useHomeT';

export { homeEn, homeZh } from './i18n';

const column = { display: 'grid', gap: 2, alignContent: 'start', gridTemplateColumns: 'minmax(0, 1fr)' };

/**
 * The home dashboard (/ and /home, spec 2 section 2.1): 'Welcome Back!', the date range, Test Status score boxes,
 * Clinical and Billing Review counters by permission, TRF Review, Communications, the Test Requisition Form
 * blurb and the Recently Completed Tests.
 */
export function HomePage() {
  const t = useHomeT();
  const navigate = useNavigate();
  const toast = useToast();
  const { permissions = [] } = usePermissions<string[]>();
  const can = (p: string) => permissions.includes(p);
  const session = readSession();
  const dates = useDateRange();
  const dashboard = useDashboard(dates.range, dates.page);
  const drafts = useDraftCount(can('VIEW_ORDERS_PAGE'));
  const data = dashboard.data;

  const go: GoTo = (target, menu) => {
    if (!target) return;
    if (menu) rememberActiveMenu(menu);
    navigate(target.to, { state: { ...target.state, from: 'home' } });
  };

  const clinical = can('CAN_REVIEW_DIAGNOSIS') ? data?.clinicalReview : undefined;
  const billing = can('VIEW_BILLING_DASHBOARD') ? data?.billingReview : undefined;
  const statusCounts = useMemo(() => data?.testStatus, [data]);

  const loadError = dashboard.error as Error | null;
  useEffect(() => {
    if (loadError) toast('error', loadError.message || t('home.loadFailed'));
  }, [loadError, toast, t]);

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="home-page">
      <Banner
        title={<span data-testid="page-title">{t('home.title')}</span>}
        subtitle={t('home.subtitle', { name: session?.firstName ?? '' })}
        right={<DateRangeControls dates={dates} />}
      />
      {dates.rangeError ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('home.invalidRange')}
        </Alert>
      ) : null}
      {dashboard.isFetching ? (
        <LinearProgress sx={{ mb: 1, height: 2 }} />
      ) : (
        <Box sx={{ height: 2, mb: 1 }} />
      )}

      {/* minmax(0, …): a column never grows past the screen to fit a wide table (narrow screens scroll it) */}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 2fr) minmax(0, 1fr)' },
        }}
      >
        <Box sx={column}>
          {statusCounts ? <TestStatusPanel counts={statusCounts} range={dates.range} go={go} /> : null}
          {clinical || billing ? (
            <ReviewPanels
              clinical={clinical}
              billing={billing}
              billingAttention={data?.billingAttention}
              go={go}
            />
          ) : null}
          <RecentTestsPanel
            recent={data?.recentlyCompleted}
            page={dates.page}
            setPage={dates.setPage}
            loading={dashboard.isPending}
            canOpen={can('VIEW_TEST_PAGE')}
          />
        </Box>

        <Box sx={column}>
          <TrfPanel canCreate={can('CAN_CREATE_TRF')} />
          {can('VIEW_ORDERS_PAGE') ? <TrfReviewPanel drafts={drafts.data} /> : null}
          {data?.unreadMessages !== undefined ? (
            <CommunicationsPanel unread={data.unreadMessages} canOpen={can('VIEW_MESSAGES_PAGE')} go={go} />
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}

export default HomePage;
