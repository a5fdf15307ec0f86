import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  ButtonBase,
  IconButton,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Banner, DateText, Truncate, useToast } from '../../components';
import { interpolate, lookupMessage } from '../../components/messages';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { readSession } from '../../providers/session';
import { rememberActiveMenu } from '../../layout/menu';
import { enumLabel } from '../../resources/orders/list/logic';
import { ordersEn } from '../../resources/orders/list/i18n';
import { homeEn } from './i18n';
import {
  billingAttentionTarget,
  billingReviewTarget,
  clinicalReviewTarget,
  dashboardQuery,
  defaultRange,
  fromInputDate,
  messagesTarget,
  RECENT_PER_PAGE,
  TEST_STATUS_BOXES,
  testStatusLabel,
  testStatusTarget,
  toInputDate,
  type DateRange,
} from './logic';

export { homeEn, homeZh } from './i18n';

interface RecentTest {
  id: string;
  testOrderId?: string | null;
  testType?: string | null;
  updatedOn?: string | null;
  testOrderForm?: {
    id?: string | null;
    testRequisitionId?: string | null;
    patient?: { name?: string | null } | null;
    account?: { name?: string | null } | null;
  } | null;
}

interface Dashboard {
  range: DateRange;
  testStatus?: Record<string, number>;
  clinicalReview?: Record<string, number>;
  billingReview?: Record<string, number>;
  billingAttention?: number;
  unreadMessages?: number;
  recentlyCompleted?: { content: RecentTest[]; totalElements: number; page: number; perPage: number };
}

function useHomeT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) =>
      translate(key, {
        ...values,
        _:
          typeof values._ === 'string'
            ? values._
            : interpolate(lookupMessage(homeEn, key) ?? lookupMessage(ordersEn, key) ?? key, values),
      }),
    [translate],
  );
}

function Panel({ title, children, testId }: { title: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, height: '100%' }} data-testid={testId}>
      <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600, mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function ScoreBox({
  label,
  count,
  onClick,
  testId,
}: {
  label: string;
  count: number | undefined;
  onClick?: () => void;
  testId?: string;
}) {
  const clickable = Boolean(onClick) && Boolean(count);
  return (
    <ButtonBase
      disabled={!clickable}
      onClick={onClick}
      data-testid={testId}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'flex-start',
        justifyContent: 'space-between',
        textAlign: 'left',
        p: 1.5,
        minHeight: 84,
        borderRadius: 1.5,
        border: 1,
        borderColor: count ? 'primary.light' : 'divider',
        bgcolor: count ? 'rgba(30,125,79,0.06)' : 'grey.50',
        transition: 'box-shadow .15s, border-color .15s',
        '&:hover': clickable ? { boxShadow: 2, borderColor: 'primary.main' } : undefined,
      }}
    >
      <Typography
        sx={{
          fontSize: 28,
          fontWeight: 700,
          lineHeight: 1.1,
          color: count ? 'primary.dark' : 'text.disabled',
        }}
      >
        {count ?? 0}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, fontSize: 12.5, lineHeight: 1.3 }}>
        {label}
      </Typography>
    </ButtonBase>
  );
}

const grid = (min: number) => ({
  display: 'grid',
  gap: 1.25,
  // at most the panel's width: two boxes of `min` do not fit a phone's panel, one does
  gridTemplateColumns: `repeat(auto-fill, minmax(min(${min}px, 100%), 1fr))`,
});

/**
 * The home dashboard (/ and /home, spec 2 section 2.1): 'Welcome Back!', the date range, Test Status score boxes,
 * Clinical and Billing Review counters by permission, TRF Review, Communications, the Test Requisition Form
 * blurb and the Recently Completed Tests.
 */
export function HomePage() {
  const t = useHomeT();
  const navigate = useNavigate();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { permissions = [] } = usePermissions<string[]>();
  const can = (p: string) => permissions.includes(p);
  const session = readSession();
  const [range, setRange] = useState<DateRange>(() => defaultRange());
  const [page, setPage] = useState(0);
  const [startText, setStartText] = useState(() => toInputDate(range.start));
  const [endText, setEndText] = useState(() => toInputDate(range.end));
  const [rangeError, setRangeError] = useState(false);

  const dashboard = useQuery({
    queryKey: ['dashboard', range, page],
    queryFn: () =>
      dataProvider
        .call<Dashboard>({ path: 'dashboard', query: dashboardQuery(range, page) })
        .then((r) => r.data),
    placeholderData: (prev: Dashboard | undefined) => prev,
  });
  const drafts = useQuery({
    queryKey: ['dashboard', 'drafts'],
    enabled: can('VIEW_ORDERS_PAGE'),
    queryFn: () =>
      dataProvider
        .getList('testOrderForms', {
          pagination: { page: 1, perPage: 1 },
          sort: { field: 'updatedOn', order: 'DESC' },
          filter: { status: ['DRAFT'] },
        })
        .then((r) => r.total ?? 0),
  });
  const data = dashboard.data;

  const go = (target: { to: string; state: Record<string, unknown> } | null, menu?: 'orders' | 'home') => {
    if (!target) return;
    if (menu) rememberActiveMenu(menu);
    navigate(target.to, { state: { ...target.state, from: 'home' } });
  };

  const applyRange = (startValue: string, endValue: string) => {
    const start = fromInputDate(startValue, 'start');
    const end = fromInputDate(endValue, 'end');
    if (start === null || end === null) return;
    if (start > end) {
      setRangeError(true);
      return;
    }
    setRangeError(false);
    setPage(0);
    setRange({ start, end });
  };

  const label = (v: string) => t(`orders.enum.${v}`, { _: enumLabel(v) });
  const recent = data?.recentlyCompleted;
  const total = recent?.totalElements ?? 0;
  const first = total ? page * RECENT_PER_PAGE + 1 : 0;
  const last = Math.min(total, (page + 1) * RECENT_PER_PAGE);
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
        right={
          <Box
            sx={{
              display: 'flex',
              gap: 1,
              alignItems: 'center',
              bgcolor: 'background.paper',
              borderRadius: 1.5,
              p: 1,
              flexWrap: 'wrap',
            }}
          >
            <TextField
              type="date"
              size="small"
              label={t('home.from')}
              value={startText}
              onChange={(e) => {
                setStartText(e.target.value);
                applyRange(e.target.value, endText);
              }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'range-start' } }}
            />
            <TextField
              type="date"
              size="small"
              label={t('home.to')}
              value={endText}
              onChange={(e) => {
                setEndText(e.target.value);
                applyRange(startText, e.target.value);
              }}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'range-end' } }}
            />
            <Button
              size="small"
              onClick={() => {
                const r = defaultRange();
                setStartText(toInputDate(r.start));
                setEndText(toInputDate(r.end));
                setRangeError(false);
                setPage(0);
                setRange(r);
              }}
            >
              {t('home.reset')}
            </Button>
          </Box>
        }
      />
      {rangeError ? (
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
        <Box sx={{ display: 'grid', gap: 2, alignContent: 'start', gridTemplateColumns: 'minmax(0, 1fr)' }}>
          {statusCounts ? (
            <Panel title={t('home.testStatus')} testId="panel-test-status">
              <Box sx={grid(130)}>
                {TEST_STATUS_BOXES.map((s) => (
                  <ScoreBox
                    key={s}
                    testId={`status-${s}`}
                    label={s === 'REPORT_COMPLETE' ? t('home.completed') : testStatusLabel(s, label)}
                    count={statusCounts[s]}
                    onClick={() => go(testStatusTarget(s, statusCounts[s] ?? 0, range))}
                  />
                ))}
              </Box>
            </Panel>
          ) : null}
          {clinical || billing ? (
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: {
                  xs: 'minmax(0, 1fr)',
                  md: clinical && billing ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)',
                },
              }}
            >
              {clinical ? (
                <Panel title={t('home.clinicalReview')} testId="panel-clinical-review">
                  <Box sx={grid(120)}>
                    {Object.entries(clinical).map(([s, n]) => (
                      <ScoreBox
                        key={s}
                        testId={`clinical-${s}`}
                        label={label(s)}
                        count={n}
                        onClick={() => go(clinicalReviewTarget(s), 'orders')}
                      />
                    ))}
                  </Box>
                </Panel>
              ) : null}
              {billing ? (
                <Panel title={t('home.billingReview')} testId="panel-billing-review">
                  <Box sx={grid(120)}>
                    {Object.entries(billing).map(([s, n]) => (
                      <ScoreBox
                        key={s}
                        testId={`billing-${s}`}
                        label={label(s)}
                        count={n}
                        onClick={() => go(billingReviewTarget(s))}
                      />
                    ))}
                    {typeof data?.billingAttention === 'number' ? (
                      <ScoreBox
                        testId="billing-needs-attention"
                        label={t('home.billingAttention')}
                        count={data.billingAttention}
                        onClick={() => go(billingAttentionTarget())}
                      />
                    ) : null}
                  </Box>
                </Panel>
              ) : null}
            </Box>
          ) : null}
          <Panel title={t('home.recent')} testId="panel-recent">
            <Box sx={{ overflowX: 'auto' }}>
              <Table
                size="small"
                sx={{ '& th': { fontWeight: 600, color: 'text.secondary', fontSize: 12.5 } }}
              >
                <TableHead>
                  <TableRow>
                    <TableCell>{t('home.col.test')}</TableCell>
                    <TableCell>{t('home.col.trf')}</TableCell>
                    <TableCell>{t('home.col.patient')}</TableCell>
                    <TableCell>{t('home.col.testType')}</TableCell>
                    <TableCell>{t('home.col.account')}</TableCell>
                    <TableCell>{t('home.col.completedOn')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {recent?.content.length ? (
                    recent.content.map((r) => (
                      <TableRow
                        key={r.id}
                        hover
                        sx={{ cursor: can('VIEW_TEST_PAGE') ? 'pointer' : 'default' }}
                        onClick={() => {
                          if (can('VIEW_TEST_PAGE'))
                            navigate(`/test/${encodeURIComponent(r.id)}`, { state: { from: 'home' } });
                        }}
                      >
                        <TableCell sx={{ fontWeight: 600 }}>{r.testOrderId ?? ''}</TableCell>
                        <TableCell>{r.testOrderForm?.testRequisitionId ?? ''}</TableCell>
                        <TableCell>
                          <Truncate text={r.testOrderForm?.patient?.name ?? ''} />
                        </TableCell>
                        <TableCell>{label(r.testType ?? '')}</TableCell>
                        <TableCell>
                          <Truncate text={r.testOrderForm?.account?.name ?? ''} />
                        </TableCell>
                        <TableCell>
                          <DateText value={r.updatedOn} />
                        </TableCell>
                      </TableRow>
                    ))
                  ) : (
                    <TableRow>
                      <TableCell colSpan={6} sx={{ py: 4, borderBottom: 0 }}>
                        <Typography align="center" color="text.secondary" data-testid="recent-empty">
                          {dashboard.isPending
                            ? t('lists.loading', { _: 'Loading....' })
                            : t('home.recentEmpty')}
                        </Typography>
                      </TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </Box>
            {total > RECENT_PER_PAGE ? (
              <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('home.pageOf', { from: first, to: last, total })}
                </Typography>
                <IconButton
                  size="small"
                  aria-label={t('home.previous')}
                  disabled={page === 0}
                  onClick={() => setPage((p) => p - 1)}
                >
                  <ChevronLeftIcon />
                </IconButton>
                <IconButton
                  size="small"
                  aria-label={t('home.next')}
                  disabled={last >= total}
                  onClick={() => setPage((p) => p + 1)}
                >
                  <ChevronRightIcon />
                </IconButton>
              </Box>
            ) : null}
          </Panel>
        </Box>

        <Box sx={{ display: 'grid', gap: 2, alignContent: 'start', gridTemplateColumns: 'minmax(0, 1fr)' }}>
          <Paper
            variant="outlined"
            sx={{
              p: 2.5,
              borderRadius: 2,
              background: 'linear-gradient(135deg, #ffffff 0%, #eef7f1 100%)',
            }}
            data-testid="panel-trf"
          >
            <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
              {t('home.trfTitle')}
            </Typography>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t('home.trfText')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2, fontStyle: 'italic' }}>
              {t('home.trfNy')}
            </Typography>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                disabled={!can('CAN_CREATE_TRF') || session?.role === 'ROLE_OBSERVER'}
                onClick={() => {
                  rememberActiveMenu('orders');
                  navigate('/order/new', { state: { selectedOrder: null, from: 'home' } });
                }}
              >
                {t('home.trfAdd')}
              </Button>
              <Button
                variant="text"
                startIcon={<PictureAsPdfOutlinedIcon />}
                onClick={() =>
                  dataProvider
                    .download({ path: 'testOrderForms/downloadBlankForm', fileName: 'TRF Document.pdf' })
                    .catch((e: Error) => toast('error', e.message))
                }
              >
                {t('home.trfDownload')}
              </Button>
            </Box>
          </Paper>
          {can('VIEW_ORDERS_PAGE') ? (
            <Panel title={t('home.trfReview')} testId="panel-trf-review">
              <Box sx={grid(120)}>
                <ScoreBox
                  testId="trf-drafts"
                  label={t('home.drafts')}
                  count={drafts.data}
                  onClick={() => {
                    rememberActiveMenu('orders');
                    navigate('/orders', { state: { from: 'home' } });
                  }}
                />
              </Box>
            </Panel>
          ) : null}
          {data?.unreadMessages !== undefined ? (
            <Panel title={t('home.communications')} testId="panel-communications">
              <ButtonBase
                onClick={() => go(messagesTarget())}
                disabled={!can('VIEW_MESSAGES_PAGE')}
                data-testid="unread-messages"
                sx={{
                  width: '100%',
                  justifyContent: 'flex-start',
                  gap: 2,
                  p: 1.5,
                  borderRadius: 1.5,
                  border: 1,
                  borderColor: 'divider',
                  '&:hover': { boxShadow: 2 },
                }}
              >
                <MailOutlineIcon color={data.unreadMessages ? 'primary' : 'disabled'} />
                <Box sx={{ textAlign: 'left' }}>
                  <Typography sx={{ fontSize: 24, fontWeight: 700, lineHeight: 1.1 }}>
                    {data.unreadMessages}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {t('home.unreadMessages')}
                  </Typography>
                </Box>
              </ButtonBase>
            </Panel>
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}

export default HomePage;
