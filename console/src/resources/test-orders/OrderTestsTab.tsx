import { useState } from 'react';
import { Box, Button, Chip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions, type Identifier } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { testActions } from '@onco/domain';
import { DataTable, Paginator, type Column } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { TestOrderRow } from './api';
import { dayToUs, statusTone } from './logic';
import { DueDateDialog, UpdateStatusDialog } from './TestDialogs';
import { UploadReportDialog } from './UploadReportDialog';
import { useTestsT } from './useTestsT';
import { useSeesField } from './boundFields';

/** The order's tests table: 7 a page, single selection (spec 2 sections 2.8 and 9). */
export const ORDER_TESTS_PAGE_SIZE = 7;

/**
 * The Tests tab of an order summary (spec 2 section 2.8): the order's tests from the lab (fresh after an action,
 * not the requisition's projection which follows a moment later), single selection, and Update Status, Upload
 * Report and Update Due Date with the rules of @onco/domain's testActions (the server enforces them).
 */
export function OrderTestsTab({ requisitionId, draft }: { requisitionId: string; draft: boolean }) {
  const t = useTestsT();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const dp = useDataProvider<ConsoleDataProvider>();
  const { permissions = [] } = usePermissions<string[]>();
  const sees = useSeesField();
  const [page, setPage] = useState(1);
  const [selectedIds, setSelectedIds] = useState<Identifier[]>([]);
  const [dialog, setDialog] = useState<'status' | 'report' | 'due' | null>(null);

  const tests = useQuery({
    queryKey: ['testOrders', 'of', requisitionId, page],
    queryFn: () =>
      dp.getList<TestOrderRow>('testOrders', {
        pagination: { page, perPage: ORDER_TESTS_PAGE_SIZE },
        sort: { field: 'createdOn', order: 'ASC' },
        filter: { testOrderFormId: requisitionId, status: '!in(TEST_SELECTED)' },
      }),
  });
  const rows = tests.data?.data ?? [];
  const selected = rows.filter((r) => selectedIds.includes(r.id));
  const actions = testActions(
    selected.map((s) => s.status),
    { permissions, draft },
  );
  const done = () => {
    setDialog(null);
    void tests.refetch();
  };
  const columns: Column<TestOrderRow>[] = [
    { source: 'testOrderId', label: t('tests.col.testId') },
    { source: 'testType', label: t('tests.col.testType'), render: (r) => label(r.testType) },
    { source: 'orderType', label: t('tests.col.orderType'), render: (r) => label(r.orderType) },
    {
      source: 'status',
      label: t('tests.col.status'),
      render: (r) => (
        <Chip size="small" variant="outlined" color={statusTone(r.status)} label={label(r.status)} />
      ),
    },
  ];
  if (sees('dueOn'))
    columns.push({ source: 'dueOn', label: t('tests.col.dueDate'), render: (r) => dayToUs(r.dueOn) });
  if (sees('limsProjectId')) columns.push({ source: 'limsProjectId', label: t('tests.col.lims') });
  const one = selected[0];
  const lab = permissions.includes('VIEW_TESTORDER_ACTIONS') || permissions.includes('CAN_UPDATE_DUE_DATE');
  return (
    <Box>
      {lab ? (
        <Box sx={{ display: 'flex', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
          <Button
            size="small"
            variant="contained"
            disabled={!actions.updateStatus}
            onClick={() => setDialog('status')}
          >
            {t('tests.action.updateStatusShort')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            disabled={!actions.uploadReport}
            onClick={() => setDialog('report')}
          >
            {t('tests.action.uploadReport')}
          </Button>
          <Button
            size="small"
            variant="outlined"
            disabled={!actions.updateDueDate}
            onClick={() => setDialog('due')}
          >
            {t('tests.action.updateDueDate')}
          </Button>
        </Box>
      ) : null}
      <DataTable<TestOrderRow>
        columns={columns}
        rows={rows}
        loading={tests.isPending}
        fetching={tests.isFetching}
        emptyText={t('tests.empty')}
        selection={lab ? 'single' : 'none'}
        selectedIds={selectedIds}
        onSelect={setSelectedIds}
        onRowClick={
          permissions.includes('VIEW_TEST_PAGE')
            ? (r) => navigate(`/test/${encodeURIComponent(r.id)}`, { state: { from: 'orders' } })
            : undefined
        }
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
        <Paginator
          page={page}
          perPage={ORDER_TESTS_PAGE_SIZE}
          total={tests.data?.total ?? 0}
          onChange={setPage}
        />
      </Box>
      {dialog === 'status' && one ? (
        <UpdateStatusDialog open tests={[one]} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog === 'report' && one ? (
        <UploadReportDialog open testOrderId={one.id} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog === 'due' && one ? (
        <DueDateDialog
          open
          testId={one.id}
          current={one.dueOn}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      ) : null}
    </Box>
  );
}
