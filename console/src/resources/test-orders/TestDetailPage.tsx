import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Link,
  Paper,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { formatDisplayDate, testActions, testTimeline } from '@onco/domain';
import { Banner, CommentsLayout, DateText, Paginator, PdfViewerDialog, formatPhone } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { CommentsPanel } from '../orders/summary/CommentsPanel';
import { addressText } from '../orders/summary/Sections';
import type { Requisition } from '../orders/summary/requisition';
import { OrderTimeline } from '../orders/timeline/OrderTimeline';
import type { TestHistoryRow, TestOrderRow } from './api';
import { useTestMethods } from './useTestMethods';
import { dayToUs } from './logic';
import { DueDateDialog, UpdateStatusDialog } from './TestDialogs';
import { UploadReportDialog } from './UploadReportDialog';
import { useTestsT } from './useTestsT';
import { useSeesField } from './boundFields';

/** Test History: 5 a page, newest first (spec 2 sections 2.5 and 9). */
export const TEST_HISTORY_PAGE_SIZE = 5;

const calendar = (v: unknown) => (typeof v === 'string' && v ? formatDisplayDate(v) : '');

/**
 * The test detail (/test/{id}, spec 2 section 2.5): "Test Order {id}", the patient and order fields, the status
 * timeline (@onco/domain's testTimeline: 9 steps, the hiding rules), the Test History table, the reports with
 * the Test Report viewer, the lab actions for VIEW_TESTORDER_ACTIONS / CAN_UPDATE_DUE_DATE (the server enforces
 * them), and the comment panel beside it. Fetched by id (the server scopes it: out of scope is "not found").
 */
export function TestDetailPage() {
  const { id = '' } = useParams();
  const t = useTestsT();
  const label = useEnumLabel();
  const dp = useDataProvider<ConsoleDataProvider>();
  const testApi = useTestMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const sees = useSeesField();
  const [dialog, setDialog] = useState<'status' | 'due' | 'report' | null>(null);
  const [pdf, setPdf] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();

  const test = useQuery({
    queryKey: ['testOrders', id],
    queryFn: () => dp.getOne<TestOrderRow & { id: string }>('testOrders', { id }).then((r) => r.data),
    retry: false,
  });
  const requisitionId = test.data?.testOrderForm.id;
  const requisition = useQuery({
    queryKey: ['testOrderForms', requisitionId],
    enabled: Boolean(requisitionId),
    queryFn: () => dp.getOne<Requisition>('testOrderForms', { id: requisitionId! }).then((r) => r.data),
    retry: false,
  });

  const history = useMemo(
    () =>
      [...(test.data?.testHistories ?? [])].sort(
        (a, b) => +new Date(b.updatedOn ?? b.createdOn) - +new Date(a.updatedOn ?? a.createdOn),
      ),
    [test.data],
  );
  const steps = useMemo(() => testTimeline(test.data?.testHistories ?? []), [test.data]);

  if (test.isPending) return <LinearProgress />;
  if (test.error || !test.data)
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning">{t('tests.detail.notFound')}</Alert>
      </Box>
    );
  const x = test.data;
  const r = requisition.data;
  const p = r?.patient ?? {};
  const tu = r?.tumorSpecimen ?? {};
  const actions = testActions([x.status], { permissions });
  const reports = x.reports ?? [];
  const refresh = () => {
    setDialog(null);
    void test.refetch();
    // the timeline is projected from the change's event: it has it a moment later
    for (const ms of [1_000, 3_000])
      setTimeout(
        () => void queryClient.invalidateQueries({ queryKey: ['timeline', x.testOrderForm.id] }),
        ms,
      );
  };

  const fields: Array<[string, React.ReactNode]> = [
    [t('tests.detail.patientNumber'), p.userId ?? x.testOrderForm.patient?.userId],
    [
      t('tests.detail.patientName'),
      [p.firstName, p.lastName].filter(Boolean).join(' ') || x.testOrderForm.patient?.name,
    ],
    [
      t('tests.detail.trf'),
      <Link key="trf" component={RouterLink} to={`/order/${encodeURIComponent(x.testOrderForm.id)}`}>
        {x.testOrderForm.testRequisitionId}
      </Link>,
    ],
    [t('tests.detail.testType'), label(x.testType)],
    [t('tests.detail.orderType'), label(x.orderType)],
    [t('tests.detail.dob'), calendar(p.dateOfBirth)],
    [t('tests.detail.sex'), label(p.birthSex)],
    [t('tests.detail.mrn'), p.mrn],
    [t('tests.detail.diagnosis'), tu.diagnosis ? label(tu.diagnosis) : ''],
    [t('tests.detail.trial'), (p as Record<string, string>).trialName],
    [t('tests.detail.study'), (p as Record<string, string>).studyPatientId],
    [t('tests.detail.address'), addressText((p as Record<string, any>).address)],
    [t('tests.detail.email'), (p as Record<string, string>).email],
    [t('tests.detail.phone'), formatPhone((p as Record<string, string>).phone)],
    [
      t('tests.detail.clinicalReview'),
      x.testOrderForm.reviewStatus ? label(x.testOrderForm.reviewStatus) : '',
    ],
    ...(sees('dueOn') ? [[t('tests.detail.dueOn'), dayToUs(x.dueOn)] as [string, React.ReactNode]] : []),
    ...(sees('limsProjectId')
      ? [[t('tests.detail.lims'), x.limsProjectId] as [string, React.ReactNode]]
      : []),
  ];

  const pageRows = history.slice((page - 1) * TEST_HISTORY_PAGE_SIZE, page * TEST_HISTORY_PAGE_SIZE);
  // the entry the submission wrote has no `change`: it is the order itself
  const changeText = (h: TestHistoryRow) => t(`tests.detail.change.${h.change ?? 'created'}`);

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }}>
      <Banner
        title={t('tests.detail.title', { id: x.testOrderId ?? x.id })}
        subtitle={`${label(x.testType)} · ${label(x.orderType)}`}
        right={<Chip color="secondary" label={label(x.status)} data-testid="test-status" />}
      />
      <CommentsLayout comments={<CommentsPanel requisitionId={x.testOrderForm.id} />}>
        <Box
          sx={{
            display: 'flex',
            flexDirection: { xs: 'column', lg: 'row' },
            gap: 2,
            alignItems: 'flex-start',
          }}
        >
          <Paper
            variant="outlined"
            sx={{ p: 2, borderRadius: 2, width: { xs: '100%', lg: 300 }, flexShrink: 0 }}
          >
            <Box component="dl" sx={{ m: 0, display: 'grid', gap: 1.25 }} data-testid="test-fields">
              {fields.map(([k, v]) => (
                <Box key={k}>
                  <Typography component="dt" variant="caption" color="text.secondary">
                    {k}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
                    {v === null || v === undefined || v === '' ? '—' : v}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Paper>
          <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 2, width: '100%' }}>
            {actions.updateStatus || actions.uploadReport || actions.updateDueDate ? (
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                {permissions.includes('VIEW_TESTORDER_ACTIONS') ? (
                  <Button
                    variant="contained"
                    size="small"
                    onClick={() => setDialog('status')}
                    data-testid="action-status"
                  >
                    {t('tests.action.updateStatusShort')}
                  </Button>
                ) : null}
                {actions.uploadReport ? (
                  <Button
                    variant="outlined"
                    size="small"
                    onClick={() => setDialog('report')}
                    data-testid="action-report"
                  >
                    {t('tests.action.uploadReport')}
                  </Button>
                ) : null}
                {actions.updateDueDate ? (
                  <Button
                    variant="outlined"
                    size="small"
                    onClick={() => setDialog('due')}
                    data-testid="action-due"
                  >
                    {t('tests.action.updateDueDate')}
                  </Button>
                ) : null}
              </Box>
            ) : null}
            <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 2, color: 'primary.dark' }}>
                {t('tests.detail.timeline')}
              </Typography>
              <Stepper alternativeLabel activeStep={-1} data-testid="timeline">
                {steps.map((s) => (
                  <Step key={s.status} completed={s.complete} active={s.current}>
                    <StepLabel
                      error={s.status === 'CANCELLED' && s.complete}
                      optional={
                        s.on ? (
                          <Typography variant="caption" color="text.secondary">
                            <DateText value={s.on} />
                          </Typography>
                        ) : undefined
                      }
                    >
                      {s.status === 'TEST_ORDERED' || s.status === 'CANCELLED'
                        ? t(`tests.step.${s.status}`)
                        : label(s.status)}
                    </StepLabel>
                  </Step>
                ))}
              </Stepper>
            </Paper>
            <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1, color: 'primary.dark' }}>
                {t('tests.detail.reports')}
              </Typography>
              {reports.length ? (
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="reports">
                  {[...reports].reverse().map((rep) => (
                    <Button
                      key={rep.version}
                      size="small"
                      variant={rep.version === reports.length ? 'contained' : 'text'}
                      startIcon={<PictureAsPdfOutlinedIcon />}
                      onClick={() => setPdf(rep.version)}
                      data-testid={`report-v${rep.version}`}
                    >
                      {t('tests.detail.version', { n: rep.version })}
                      {rep.amended ? ` (${t('tests.detail.amended')})` : ''} ·{' '}
                      <DateText value={rep.uploadedOn} />
                    </Button>
                  ))}
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary">
                  {t('tests.detail.noReport')}
                </Typography>
              )}
            </Paper>
            <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
              <Typography variant="subtitle2" sx={{ fontWeight: 700, p: 2, pb: 1, color: 'primary.dark' }}>
                {t('tests.detail.history')}
              </Typography>
              <Table size="small" data-testid="test-history">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('tests.detail.hStatus')}</TableCell>
                    <TableCell>{t('tests.detail.hChange')}</TableCell>
                    <TableCell>{t('tests.detail.hDetail')}</TableCell>
                    <TableCell>{t('tests.detail.hBy')}</TableCell>
                    <TableCell>{t('tests.detail.hUpdated')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {pageRows.length ? (
                    pageRows.map((h, i) => (
                      <TableRow key={`${h.createdOn}-${i}`}>
                        <TableCell>{label(h.status)}</TableCell>
                        <TableCell>{changeText(h)}</TableCell>
                        <TableCell>
                          {h.change === 'due-date' ? dayToUs(h.detail) : (h.detail ?? '')}
                        </TableCell>
                        <TableCell>{h.by?.name ?? ''}</TableCell>
                        <TableCell>
                          <DateText value={h.updatedOn ?? h.createdOn} withTime />
                        </TableCell>
                      </TableRow>
                    ))
                  ) : (
                    <TableRow>
                      <TableCell colSpan={5}>{t('tests.detail.historyEmpty')}</TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
              <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 2, py: 1 }}>
                <Paginator
                  page={page}
                  perPage={TEST_HISTORY_PAGE_SIZE}
                  total={history.length}
                  onChange={setPage}
                />
              </Box>
            </Paper>
            <OrderTimeline requisitionId={x.testOrderForm.id} testOrderId={x.id} />
          </Box>
        </Box>
      </CommentsLayout>
      <PdfViewerDialog
        open={pdf !== null}
        title={t('tests.detail.report')}
        load={() => testApi.loadTestReport({ id: x.id, version: pdf ?? undefined })}
        onClose={() => setPdf(null)}
      />
      {dialog === 'status' ? (
        <UpdateStatusDialog open tests={[x]} onClose={() => setDialog(null)} onDone={refresh} />
      ) : null}
      {dialog === 'due' ? (
        <DueDateDialog
          open
          testId={x.id}
          current={x.dueOn}
          onClose={() => setDialog(null)}
          onDone={refresh}
        />
      ) : null}
      {dialog === 'report' ? (
        <UploadReportDialog open testOrderId={x.id} onClose={() => setDialog(null)} onDone={refresh} />
      ) : null}
    </Box>
  );
}

export default TestDetailPage;
