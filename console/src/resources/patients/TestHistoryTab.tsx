import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  Link,
  Paper,
  Radio,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { mergeTrfProblem, PATIENT_TEST_HISTORY_PAGE_SIZE, type RequisitionStatus } from '@onco/domain';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { ActionsMenu, ConfirmDialog, DateText, Paginator, PdfViewerDialog, useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useTestMethods } from '../test-orders/useTestMethods';
import { diagnosisText } from '../orders/list/logic';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { MergeTrfDialog } from '../orders/merge/MergeTrfDialog';
import { SubsequentOrderDialog } from '../orders/summary/SubsequentOrderDialog';
import { hasReport, reportOf, testHistoryFilter } from './logic';
import { errorMessage, usePatientsT } from './usePatients';

interface HistoryTest {
  id: string;
  testOrderId?: string | null;
  testType: string;
  orderType: string;
  status: string;
}
interface HistoryRow {
  id: string;
  testRequisitionId: string | null;
  status: RequisitionStatus;
  deleted?: boolean;
  parentTestOrderForm?: { testRequisitionId?: string | null } | null;
  sampleStatuses?: string[];
  testOrders: HistoryTest[];
  tumorSpecimen?: { diagnosis?: string | null; otherDiagnosis?: string | null } | null;
  reports?: Array<{ id: string; testOrderId?: string | null; createdOn?: string | null }>;
  account?: { id?: string | null } | null;
  patient?: { id?: string | null; userId?: string | null } | null;
  createdOn?: string | null;
  updatedOn?: string | null;
  actions?: { delete?: boolean; subsequentOrder?: boolean };
}

const Stack = ({ children }: { children: React.ReactNode }) => (
  <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>{children}</Box>
);

/**
 * The patient's Test History (spec 2 section 2.7): the SUBMITTED requisitions of the patient from the
 * requisitions service's own list (filter patientId, status SUBMITTED; 10 a page, newest update first), one row
 * per requisition with its tests stacked; the test and sample statuses are the requisition's projections of the
 * lab's events. Subsequent (Order), the Report viewer, Delete when the requisition's delete rule allows it (the
 * server's `actions`), and the Actions menu's Merge TRF on the selected row.
 */
export function TestHistoryTab({ patientId }: { patientId: string }) {
  const t = usePatientsT();
  const label = useEnumLabel();
  const toast = useToast();
  const navigate = useNavigate();
  const dp = useDataProvider<ConsoleDataProvider>();
  const testApi = useTestMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<HistoryRow | null>(null);
  const [merging, setMerging] = useState(false);
  const [report, setReport] = useState<HistoryTest | null>(null);
  const [toDelete, setToDelete] = useState<HistoryRow | null>(null);
  const [subsequent, setSubsequent] = useState<HistoryRow | null>(null);

  const q = useQuery({
    queryKey: ['testOrderForms', 'patient-history', patientId, page],
    queryFn: () =>
      dp.getList<HistoryRow>('testOrderForms', {
        pagination: { page, perPage: PATIENT_TEST_HISTORY_PAGE_SIZE },
        sort: { field: 'updatedOn', order: 'DESC' },
        filter: testHistoryFilter(patientId),
      }),
    placeholderData: (prev) => prev,
  });
  const rows = q.data?.data ?? [];
  const canMerge =
    permissions.includes('CAN_MERGE_TRF') &&
    selected !== null &&
    mergeTrfProblem({ ...selected, testStatuses: selected.testOrders.map((x) => x.status) }) === null;

  const doDelete = async () => {
    if (!toDelete) return;
    try {
      await dp.delete('testOrderForms', { id: toDelete.id, previousData: toDelete });
      toast('success', t('patients.deleted'));
      if (selected?.id === toDelete.id) setSelected(null);
      void q.refetch();
    } catch (e) {
      toast('error', errorMessage(e, t('patients.deleteFailed')));
    } finally {
      setToDelete(null);
    }
  };

  const head = [
    '',
    t('patients.th.trf'),
    t('patients.th.initialTrf'),
    t('patients.th.sampleStatuses'),
    t('patients.th.test'),
    t('patients.th.testType'),
    t('patients.th.orderType'),
    t('patients.th.subsequent'),
    t('patients.th.testStatus'),
    t('patients.th.diagnosis'),
    t('patients.th.created'),
    t('patients.th.updated'),
    t('patients.th.report'),
    t('patients.th.delete'),
  ];

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2 }} data-testid="patient-test-history">
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.25, gap: 1 }}>
        <Typography variant="body2" color="text.secondary" data-testid="patient-selected-trf">
          {selected?.testRequisitionId ?? t('patients.noTrf')}
        </Typography>
        <Box sx={{ flex: 1 }} />
        {permissions.includes('CAN_MERGE_TRF') ? (
          <ActionsMenu
            label={t('patients.actions')}
            testId="history-actions"
            actions={[
              {
                key: 'merge',
                label: t('patients.mergeTrf'),
                secondary: selected ? null : t('patients.noTrf'),
                disabled: !canMerge,
                testId: 'history-action-merge',
                onClick: () => setMerging(true),
              },
            ]}
          />
        ) : null}
      </Box>
      <TableContainer>
        <Table size="small" sx={{ '& td, & th': { px: 1 } }}>
          <TableHead>
            <TableRow>
              {head.map((h, i) => (
                <TableCell key={i} sx={{ fontWeight: 600, lineHeight: 1.3 }}>
                  {h}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={head.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                  {q.isPending ? 'Loading....' : t('patients.noTests')}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((r) => (
                <TableRow
                  key={r.id}
                  hover
                  selected={selected?.id === r.id}
                  onClick={() => setSelected(r)}
                  data-testid={`history-row-${r.id}`}
                  sx={{ verticalAlign: 'top' }}
                >
                  <TableCell padding="checkbox">
                    <Radio size="small" checked={selected?.id === r.id} onChange={() => setSelected(r)} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Link
                      component={RouterLink}
                      to={`/order/${encodeURIComponent(r.id)}`}
                      onClick={(e) => e.stopPropagation()}
                      sx={{ fontWeight: 600 }}
                    >
                      {r.testRequisitionId}
                    </Link>
                  </TableCell>
                  <TableCell>{r.parentTestOrderForm?.testRequisitionId ?? ''}</TableCell>
                  <TableCell>
                    {r.sampleStatuses?.length ? (
                      <Stack>
                        {r.sampleStatuses.map((s, i) => (
                          <span key={i}>{label(s)}</span>
                        ))}
                      </Stack>
                    ) : (
                      <Typography variant="caption" color="text.secondary">
                        {t('patients.noSamples')}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Stack>
                      {r.testOrders.map((x) => (
                        <Link
                          key={x.id}
                          component={RouterLink}
                          to={`/test/${encodeURIComponent(x.id)}`}
                          onClick={(e) => e.stopPropagation()}
                          data-testid={`history-test-${x.id}`}
                        >
                          {x.testOrderId ?? x.id}
                        </Link>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    <Stack>
                      {r.testOrders.map((x) => (
                        <span key={x.id}>{label(x.testType)}</span>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    <Stack>
                      {r.testOrders.map((x) => (
                        <span key={x.id}>{label(x.orderType)}</span>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    {r.actions?.subsequentOrder ? (
                      <Button
                        size="small"
                        variant="outlined"
                        onClick={(e) => {
                          e.stopPropagation();
                          setSubsequent(r);
                        }}
                      >
                        {t('patients.th.order')}
                      </Button>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <Stack>
                      {r.testOrders.map((x) => (
                        <span key={x.id} data-testid={`history-status-${x.id}`}>
                          {label(x.status)}
                        </span>
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>{diagnosisText(r.tumorSpecimen, label)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <DateText value={r.createdOn} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <DateText value={r.updatedOn} />
                  </TableCell>
                  <TableCell>
                    <Stack>
                      {r.testOrders.map((x) =>
                        hasReport(x.status, reportOf(x.id, r.reports)) ? (
                          <Link
                            key={x.id}
                            component="button"
                            variant="body2"
                            onClick={(e: React.MouseEvent) => {
                              e.stopPropagation();
                              setReport(x);
                            }}
                            data-testid={`history-report-${x.id}`}
                          >
                            {t('patients.th.view')}
                          </Link>
                        ) : (
                          <span key={x.id}>&nbsp;</span>
                        ),
                      )}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    {r.actions?.delete ? (
                      <IconButton
                        size="small"
                        aria-label={t('patients.th.delete')}
                        onClick={(e) => {
                          e.stopPropagation();
                          setToDelete(r);
                        }}
                        data-testid={`history-delete-${r.id}`}
                      >
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 2, py: 1 }}>
        <Paginator
          page={page}
          perPage={PATIENT_TEST_HISTORY_PAGE_SIZE}
          total={q.data?.total ?? 0}
          onChange={setPage}
        />
      </Box>
      <PdfViewerDialog
        open={report !== null}
        title={t('patients.reportTitle')}
        load={() => (report ? testApi.loadTestReport({ id: report.id }) : Promise.resolve(null))}
        onClose={() => setReport(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        kind="warning"
        title={t('patients.deleteTitle')}
        message={t('patients.deleteMessage', { trf: toDelete?.testRequisitionId ?? '' })}
        confirmLabel={t('patients.yes')}
        cancelLabel={t('patients.no')}
        onClose={() => setToDelete(null)}
        onConfirm={doDelete}
      />
      {subsequent ? (
        <SubsequentOrderDialog
          open
          requisitionId={subsequent.id}
          patientNumber={subsequent.patient?.userId ?? ''}
          onClose={() => setSubsequent(null)}
          onCreated={(id) => {
            setSubsequent(null);
            navigate(`/order/${encodeURIComponent(id)}`);
          }}
        />
      ) : null}
      {merging && selected ? (
        <MergeTrfDialog
          open
          current={{
            id: selected.id,
            testRequisitionId: selected.testRequisitionId,
            patientId,
            accountId: selected.account?.id ?? null,
          }}
          onClose={() => setMerging(false)}
          onMerged={() => {
            setMerging(false);
            setSelected(null);
            void q.refetch();
          }}
        />
      ) : null}
    </Paper>
  );
}
