import { DayRangeFields } from '../../components/DayRangeFields';
import { useMemo, useState } from 'react';
import { Box, Chip, Link, Tooltip } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { usePermissions } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { daysToMs } from '@onco/domain';
import {
  ActionsMenu,
  DateText,
  enumColumn,
  ListPage,
  NavFilterChip,
  RowLink,
  selectionActionDone,
  stopRowClick,
  Truncate,
  useDurationText,
  type Column,
  type FacetFilterDef,
  type ListContext,
} from '../../components';
import { rememberActiveMenu } from '../../layout/menu';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { TestOrderRow } from './api';
import {
  initialTestsState,
  limsUrl,
  opensOnCounter,
  statusTone,
  testsBaseFilter,
  type OrderedRange,
} from './logic';
import { LimsDialog, UpdateStatusDialog } from './TestDialogs';
import { UploadReportDialog } from './UploadReportDialog';
import { useTestsT } from './useTestsT';
import { useSeesField } from './boundFields';

const LIMS_TEMPLATE = import.meta.env.VITE_LIMS_PROJECT_URL as string | undefined;

/**
 * The tests list (/tests, spec 2 section 2.4): banner Test Orders; Test, Order and Status filters from the
 * server's facets and the Ordered date range; the initial status and range from navigation state (the home
 * dashboard's counters); TEST_SELECTED hidden by default; the LIMS Project, Due Date and Test Duration columns
 * only with their permissions (the LIMS link opens a new tab); the Actions menu for portal
 * administrators (VIEW_TESTS_ACTIONS). The server scopes the rows to the user's accounts.
 */
export function TestsListPage() {
  const t = useTestsT();
  const label = useEnumLabel();
  const duration = useDurationText();
  const navigate = useNavigate();
  const location = useLocation();
  const { permissions = [] } = usePermissions<string[]>();
  const sees = useSeesField();
  const can = (p: string) => permissions.includes(p);
  const initial = useMemo(() => initialTestsState(location.state), [location.state]);
  const [navStatus, setNavStatus] = useState<string | null>(initial.status);
  const [range, setRange] = useState<OrderedRange>(initial.range);
  const [onCounter] = useState(() => opensOnCounter(initial));
  const [dialog, setDialog] = useState<'status' | 'lims' | 'report' | null>(null);

  const baseFilter = useMemo(() => testsBaseFilter(navStatus, range), [navStatus, range]);
  const adminActions = can('VIEW_TESTS_ACTIONS');

  const facets: FacetFilterDef[] = [
    { name: 'test_type_facet', field: 'testType', label: t('tests.facet.test') },
    { name: 'order_type_facet', field: 'orderType', label: t('tests.facet.order') },
    { name: 'test_status_facet', field: 'status', label: t('tests.facet.status') },
  ].map((f) => ({ ...f, itemLabel: (item) => label(item.value == null ? '' : String(item.value)) }));

  const open = (row: TestOrderRow) => {
    rememberActiveMenu('tests');
    navigate(`/test/${encodeURIComponent(row.id)}`, { state: { payload: row, from: 'tests' } });
  };

  const columns: Column<TestOrderRow>[] = [
    {
      source: 'testOrderId',
      label: t('tests.col.testId'),
      sortable: true,
      render: (r) => (
        <RowLink to={`/test/${encodeURIComponent(r.id)}`} sx={{ fontWeight: 600 }}>
          {r.testOrderId ?? r.id}
        </RowLink>
      ),
    },
    {
      source: 'testOrderForm',
      label: t('tests.col.trf'),
      sortable: true,
      sortField: 'testRequisitionId',
      render: (r) => (
        <RowLink to={`/order/${encodeURIComponent(r.testOrderForm.id)}`}>
          {r.testOrderForm.testRequisitionId ?? ''}
        </RowLink>
      ),
    },
    enumColumn('testType', t('tests.col.testType'), label),
    enumColumn('orderType', t('tests.col.orderType'), label),
    {
      source: 'status',
      label: t('tests.col.status'),
      sortable: true,
      render: (r) => (
        <Chip size="small" variant="outlined" color={statusTone(r.status)} label={label(r.status)} />
      ),
    },
    {
      source: 'patient',
      label: t('tests.col.patient'),
      sortable: true,
      sortField: 'patientName',
      render: (r) =>
        r.testOrderForm.patient?.id ? (
          <RowLink to={`/patient/${encodeURIComponent(r.testOrderForm.patient.id)}`}>
            <Truncate text={r.testOrderForm.patient.name ?? r.testOrderForm.patient.userId ?? ''} />
          </RowLink>
        ) : (
          ''
        ),
    },
    {
      source: 'account',
      label: t('tests.col.account'),
      sortable: true,
      sortField: 'accountName',
      render: (r) => <Truncate text={r.testOrderForm.account?.name ?? ''} />,
    },
    {
      source: 'location',
      label: t('tests.col.location'),
      sortable: true,
      sortField: 'locationName',
      render: (r) => <Truncate text={r.testOrderForm.hospitalLocation?.name ?? ''} />,
    },
    {
      source: 'physician',
      label: t('tests.col.physician'),
      sortable: true,
      sortField: 'physicianName',
      render: (r) => <Truncate text={r.testOrderForm.physician?.name ?? ''} />,
    },
    {
      source: 'createdOn',
      label: t('tests.col.ordered'),
      sortable: true,
      render: (r) => <DateText value={r.createdOn} />,
    },
    {
      source: 'updatedOn',
      label: t('tests.col.updated'),
      sortable: true,
      render: (r) => <DateText value={r.updatedOn} />,
    },
  ];
  // the LIMS project, due date and duration: only with their permissions (the server withholds them too,
  // and refuses sorting by them)
  if (sees('limsProjectId'))
    columns.push({
      source: 'limsProjectId',
      label: t('tests.col.lims'),
      sortable: true,
      render: (r) =>
        r.limsProjectId ? (
          <Link
            href={limsUrl(r.limsProjectId, LIMS_TEMPLATE)}
            target="_blank"
            rel="noopener noreferrer"
            onClick={stopRowClick}
            data-testid={`lims-${r.id}`}
          >
            {r.limsProjectId}
            <OpenInNewIcon sx={{ fontSize: 12, ml: 0.25, verticalAlign: 'middle' }} />
          </Link>
        ) : (
          ''
        ),
    });
  if (sees('dueOn'))
    columns.push({
      source: 'dueOn',
      label: t('tests.col.dueDate'),
      sortable: true,
      render: (r) => <DateText value={r.dueOn ? `${r.dueOn}T12:00:00` : null} />,
    });
  if (sees('testDuration'))
    columns.push({
      source: 'testDuration',
      label: t('tests.col.duration'),
      sortable: true,
      // kept in whole days (from ordering to the first report): months, weeks and days (spec 3 section 9.1)
      render: (r) => (r.testDuration == null ? '' : duration(daysToMs(r.testDuration), 'days')),
    });

  const actions = (ctx: ListContext<TestOrderRow>) => (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      {navStatus ? (
        <NavFilterChip
          label={`${t('tests.facet.status')}: ${label(navStatus)}`}
          onDelete={() => setNavStatus(null)}
          testId="nav-status"
        />
      ) : null}
      <Tooltip title={t('tests.ordered')}>
        <DayRangeFields label={t('tests.ordered')} range={range} setRange={setRange} testId="ordered" />
      </Tooltip>
      {navStatus || range.start !== null || range.end !== null ? (
        <Link
          component="button"
          variant="body2"
          onClick={() => {
            setNavStatus(null);
            setRange({ start: null, end: null });
          }}
        >
          {t('lists.resetFilters', { _: 'Reset' })}
        </Link>
      ) : null}
      {adminActions ? (
        <ActionsMenu
          label={t('tests.actions')}
          testId="tests-actions"
          actions={[
            {
              key: 'lims',
              label: t('tests.action.lims'),
              disabled: ctx.selected.length !== 1,
              onClick: () => setDialog('lims'),
            },
            {
              key: 'status',
              label: t('tests.action.updateStatus'),
              disabled: ctx.selected.length < 1,
              onClick: () => setDialog('status'),
            },
            {
              key: 'report',
              label: t('tests.action.uploadReport'),
              disabled: ctx.selected.length !== 1 || ctx.selected[0]?.status === 'TEST_ORDERED',
              onClick: () => setDialog('report'),
            },
          ]}
        />
      ) : null}
    </Box>
  );

  return (
    <ListPage<TestOrderRow>
      resource="testOrders"
      listName="tests"
      title={t('tests.title')}
      subtitle={t('tests.subtitle')}
      columns={columns}
      facets={facets}
      baseFilter={baseFilter}
      rememberFilters={!onCounter}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      emptyText={t('tests.empty')}
      searchPlaceholder={t('tests.searchPlaceholder')}
      selection={adminActions ? 'multi' : 'none'}
      onRowClick={open}
      actions={actions}
    >
      {(ctx) => {
        const done = selectionActionDone(ctx, () => setDialog(null));
        const one = ctx.selected[0];
        return (
          <>
            {dialog === 'status' ? (
              <UpdateStatusDialog open tests={ctx.selected} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {dialog === 'lims' && one ? (
              <LimsDialog
                open
                testId={one.id}
                current={one.limsProjectId}
                onClose={() => setDialog(null)}
                onDone={done}
              />
            ) : null}
            {dialog === 'report' && one ? (
              <UploadReportDialog open testOrderId={one.id} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
          </>
        );
      }}
    </ListPage>
  );
}

export default TestsListPage;
