import { Box, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useNavigate } from 'react-router-dom';
import { DateText, Truncate } from '../../components';
import { RECENT_PER_PAGE } from './logic';
import { Panel } from './Panel';
import type { RecentPage, RecentTest } from './useDashboard';
import { useHomeLabel, useHomeT } from './useHomeT';

const COLUMNS = ['test', 'trf', 'patient', 'testType', 'account', 'completedOn'] as const;

/** Recently Completed Tests: a page of tests (a row opens the test when allowed) and the pager. */
export function RecentTestsPanel(props: {
  recent: RecentPage | undefined;
  page: number;
  setPage: (update: (page: number) => number) => void;
  loading: boolean;
  canOpen: boolean;
}) {
  const { recent, page, setPage } = props;
  const t = useHomeT();
  const total = recent?.totalElements ?? 0;
  const first = total ? page * RECENT_PER_PAGE + 1 : 0;
  const last = Math.min(total, (page + 1) * RECENT_PER_PAGE);
  return (
    <Panel title={t('home.recent')} testId="panel-recent">
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" sx={{ '& th': { fontWeight: 600, color: 'text.secondary', fontSize: 12.5 } }}>
          <TableHead>
            <TableRow>
              {COLUMNS.map((c) => (
                <TableCell key={c}>{t(`home.col.${c}`)}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {recent?.content.length ? (
              recent.content.map((r) => <RecentRow key={r.id} r={r} canOpen={props.canOpen} />)
            ) : (
              <TableRow>
                <TableCell colSpan={6} sx={{ py: 4, borderBottom: 0 }}>
                  <Typography align="center" color="text.secondary" data-testid="recent-empty">
                    {props.loading ? t('lists.loading', { _: 'Loading....' }) : t('home.recentEmpty')}
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
  );
}

function RecentRow({ r, canOpen }: { r: RecentTest; canOpen: boolean }) {
  const navigate = useNavigate();
  const label = useHomeLabel();
  return (
    <TableRow
      hover
      sx={{ cursor: canOpen ? 'pointer' : 'default' }}
      onClick={() => {
        if (canOpen) navigate(`/test/${encodeURIComponent(r.id)}`, { state: { from: 'home' } });
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
  );
}
