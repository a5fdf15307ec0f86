import { useMessagesT } from '../../../components';
import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Link, Paper, Skeleton, Tab, Tabs, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import MergeTypeIcon from '@mui/icons-material/MergeType';
import { formatDisplayDate, icd10List, mergeTrfProblem, type BillingReviewStatus } from '@onco/domain';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router-dom';
import {
  Banner,
  CommentsLayout,
  ConfirmDialog,
  formatDateTime,
  PdfViewerDialog,
  useToast,
} from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { diagnosisText, patientName, testProgress } from '../list/logic';
import { useEnumLabel, useOrdersT } from '../list/useOrdersT';
import { errorText, loadTrfPdf } from './api';
import { CommentsPanel } from './CommentsPanel';
import { editBody, EditPanel, initialEditValues, type EditValues } from './EditPanel';
import {
  addressText,
  AttachmentsTab,
  BillingTab,
  PatientTab,
  ProviderTab,
  testSelectionText,
} from './Sections';
import type { Requisition } from './requisition';
import { SamplesTab } from './samples/SamplesTab';
import { SubsequentOrderDialog } from './SubsequentOrderDialog';
import { OrderTestsTab } from '../../test-orders/OrderTestsTab';
import { BillingReviewControl } from '../../billing/BillingReviewControl';
import { OrderTimeline } from '../timeline/OrderTimeline';
import { MergeTrfDialog } from '../merge/MergeTrfDialog';
import { mergeEn } from '../merge/i18n';

export const SUMMARY_TABS = [
  'patient',
  'provider',
  'billing',
  'attachments',
  'samples',
  'tests',
  'timeline',
] as const;
export type SummaryTab = (typeof SUMMARY_TABS)[number];

function HeaderField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.4 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
        {children === '' || children === null || children === undefined ? '—' : children}
      </Typography>
    </Box>
  );
}

function ProgressBox({ label, count, color }: { label: string; count: number; color: string }) {
  return (
    <Box
      sx={{
        flex: 1,
        minWidth: 120,
        p: 1.5,
        borderRadius: 1.5,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'grey.50',
      }}
      data-testid={`progress-${label}`}
    >
      <Typography sx={{ fontSize: 26, fontWeight: 700, color, lineHeight: 1.1 }}>{count}</Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

/**
 * The order summary (/order/{id}/summary/{tab}, a non-draft requisition; spec 2 section 2.3, spec 1 section 2):
 * header, tests progress, tabs Patient, Provider, Billing, Attachments, Samples, Tests, the actions the server
 * allows (Print, Copy, Delete, Subsequent Order) with their confirmations, and the comments panel (75% / 25%).
 * A draft opened here goes to the wizard.
 */
export function OrderSummaryPage() {
  const { id = '', tab: tabParam } = useParams<{ id: string; tab?: string }>();
  const t = useOrdersT();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { permissions = [] } = usePermissions<string[]>();
  const [printing, setPrinting] = useState(false);
  const [confirm, setConfirm] = useState<'copy' | 'delete' | 'edit' | null>(null);
  const [editing, setEditing] = useState<EditValues | null>(null);
  const [subsequent, setSubsequent] = useState(false);
  const [merging, setMerging] = useState(false);
  const mt = useMessagesT(mergeEn);

  const query = useQuery({
    queryKey: ['testOrderForms', 'summary', id],
    queryFn: () => dataProvider.getOne<Requisition>('testOrderForms', { id }).then((r) => r.data),
    enabled: Boolean(id),
    // the TRF PDF is made by a worker after submit: look again for a while so Print appears when it is ready
    refetchInterval: (q) => {
      const d = q.state.data;
      const recent = d?.updatedOn ? Date.now() - new Date(d.updatedOn).getTime() < 3 * 60_000 : false;
      return d && d.status === 'SUBMITTED' && !d.deleted && !d.actions?.print && recent ? 4000 : false;
    },
  });
  const r = query.data;
  const tab: SummaryTab = (SUMMARY_TABS as readonly string[]).includes(tabParam ?? '')
    ? (tabParam as SummaryTab)
    : 'patient';

  if (tabParam !== tab) return <Navigate to={`/order/${encodeURIComponent(id)}/summary/${tab}`} replace />;
  if (r && r.status === 'DRAFT') return <Navigate to={`/order/${encodeURIComponent(id)}`} replace />;

  if (query.error) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error">{errorText(query.error, t('orders.summary.loadFailed'))}</Alert>
      </Box>
    );
  }
  if (!r) {
    return (
      <Box sx={{ p: { xs: 1.5, md: 3 } }} data-testid="summary-loading">
        <Skeleton variant="rounded" height={72} sx={{ mb: 2 }} />
        <Skeleton variant="rounded" height={180} sx={{ mb: 2 }} />
        <Skeleton variant="rounded" height={320} />
      </Box>
    );
  }

  const actions = r.actions ?? {
    print: false,
    copy: false,
    edit: false,
    delete: false,
    subsequentOrder: false,
  };
  const progress = testProgress(r.testOrders);
  const p = r.patient ?? {};
  const approval = r.approvals?.[r.approvals.length - 1];
  // Copy is not offered while the order is being edited (spec 1 section 4)
  const canCopy = actions.copy && !editing && permissions.includes('CAN_CREATE_TRF');
  // Merge TRF (spec 2 section 6): a submitted form with no cancelled test; the server checks both forms again
  const canMerge =
    permissions.includes('CAN_MERGE_TRF') &&
    !editing &&
    mergeTrfProblem({ ...r, testStatuses: (r.testOrders ?? []).map((x) => x.status) }) === null;

  const doCopy = async () => {
    try {
      const { data } = await dataProvider.call<{ id: string }>({
        path: `testOrderForms/${encodeURIComponent(r.id)}/copy`,
        method: 'POST',
      });
      setConfirm(null);
      navigate(`/order/${encodeURIComponent(data.id)}`, { state: { from: 'orders' } });
    } catch (e) {
      setConfirm(null);
      toast('error', errorText(e, t('orders.summary.copyFailed')));
    }
  };
  const doSave = async () => {
    if (!editing) return;
    try {
      await dataProvider.update('testOrderForms', { id: r.id, data: editBody(r, editing), previousData: r });
      setConfirm(null);
      toast('success', t('orders.summary.updated'));
      // leave edit mode with the saved values on screen (never a flash of the values before the save)
      await query.refetch();
      setEditing(null);
    } catch (e) {
      setConfirm(null);
      toast('error', errorText(e, t('orders.summary.updateFailed')));
    }
  };
  const doDelete = async () => {
    try {
      await dataProvider.delete('testOrderForms', { id: r.id, previousData: r });
      setConfirm(null);
      toast('success', t('orders.deletedToast'));
      navigate('/orders', { state: { reviewStatus: null } });
    } catch (e) {
      setConfirm(null);
      toast('error', errorText(e, t('orders.deleteFailed')));
    }
  };

  const tabLabel = (k: SummaryTab) => t(`orders.summary.tab.${k}`);

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="order-summary">
      <Banner
        title={`${t('orders.summary.bannerTitle')}${r.testRequisitionId ? ` : ${r.testRequisitionId}` : ''}`}
        subtitle={label(r.status)}
        right={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            {actions.print ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<PrintOutlinedIcon />}
                onClick={() => setPrinting(true)}
              >
                {t('orders.summary.print')}
              </Button>
            ) : null}
            {canCopy ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<ContentCopyIcon />}
                onClick={() => setConfirm('copy')}
              >
                {t('orders.summary.copy')}
              </Button>
            ) : null}
            {actions.edit && !editing ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<EditOutlinedIcon />}
                onClick={() => setEditing(initialEditValues(r))}
              >
                {t('orders.summary.edit')}
              </Button>
            ) : null}
            {editing ? (
              <>
                <Button variant="outlined" color="inherit" onClick={() => setEditing(null)}>
                  {t('orders.summary.cancel')}
                </Button>
                <Button
                  variant="contained"
                  color="secondary"
                  startIcon={<SaveOutlinedIcon />}
                  onClick={() => setConfirm('edit')}
                >
                  {t('orders.summary.save')}
                </Button>
              </>
            ) : null}
            {actions.subsequentOrder ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<ReplayIcon />}
                onClick={() => setSubsequent(true)}
              >
                {t('orders.summary.subsequentOrder')}
              </Button>
            ) : null}
            {canMerge ? (
              <Button
                variant="contained"
                color="secondary"
                startIcon={<MergeTypeIcon />}
                onClick={() => setMerging(true)}
                data-testid="action-merge"
              >
                {mt('merge.action')}
              </Button>
            ) : null}
            {r.status === 'SUBMITTED' && permissions.includes('VIEW_MESSAGES_PAGE') ? (
              <Button
                variant="outlined"
                color="inherit"
                startIcon={<MailOutlineIcon />}
                data-testid="action-message"
                // the new-message form on /messages, with this order, its patient and location filled in
                onClick={() =>
                  navigate('/messages', {
                    state: {
                      compose: {
                        testOrderForm: { id: r.id, testRequisitionId: r.testRequisitionId ?? null },
                        patient: p.id
                          ? { id: p.id, name: [p.firstName, p.lastName].filter(Boolean).join(' ') }
                          : null,
                        hospitalLocation: r.hospitalLocation?.id
                          ? { id: r.hospitalLocation.id, name: r.hospitalLocation.name ?? null }
                          : null,
                      },
                    },
                  })
                }
              >
                {t('orders.summary.message')}
              </Button>
            ) : null}
            {actions.delete ? (
              <Button
                variant="contained"
                color="error"
                startIcon={<DeleteOutlineIcon />}
                onClick={() => setConfirm('delete')}
              >
                {t('orders.summary.delete')}
              </Button>
            ) : null}
          </Box>
        }
      />
      {r.deleted ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('orders.summary.deletedNotice')}
        </Alert>
      ) : null}
      {r.mergedInto?.id ? (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          data-testid="merged-into"
          action={
            <Button
              color="inherit"
              size="small"
              component={RouterLink}
              to={`/order/${encodeURIComponent(r.mergedInto.id)}`}
            >
              {mt('merge.openPrimary')}
            </Button>
          }
        >
          {mt('merge.mergedInto', { trf: r.mergedInto.testRequisitionId ?? r.mergedInto.id })}
        </Alert>
      ) : null}
      {merging && p.id ? (
        <MergeTrfDialog
          open
          current={{
            id: r.id,
            testRequisitionId: r.testRequisitionId ?? null,
            patientId: p.id,
            accountId: r.account?.id ?? null,
          }}
          onClose={() => setMerging(false)}
          onMerged={(primaryId) => {
            setMerging(false);
            navigate(`/order/${encodeURIComponent(primaryId)}`);
            void query.refetch();
          }}
        />
      ) : null}
      <CommentsLayout comments={<CommentsPanel requisitionId={r.id} />}>
        <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, mb: 2 }} data-testid="summary-header">
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' },
            }}
          >
            <HeaderField label={t('orders.summary.tab.patient')}>
              {p.id ? (
                <Link
                  component={RouterLink}
                  to={`/patient/${encodeURIComponent(p.id)}`}
                  sx={{ fontWeight: 600 }}
                >
                  {patientName(p)}
                </Link>
              ) : (
                patientName(p)
              )}
            </HeaderField>
            <HeaderField label={t('orders.summary.patientNumber')}>{p.userId}</HeaderField>
            <HeaderField label={t('orders.summary.dateOfBirth')}>
              {p.dateOfBirth ? formatDisplayDate(p.dateOfBirth) : ''}
            </HeaderField>
            <HeaderField label={t('orders.summary.sex')}>{label(p.birthSex)}</HeaderField>
            <HeaderField label={t('orders.summary.mrn')}>{p.mrn}</HeaderField>
            <HeaderField label={t('orders.summary.testSelection')}>{testSelectionText(r)}</HeaderField>
            <HeaderField label={t('orders.summary.diagnosis')}>
              {diagnosisText(r.tumorSpecimen, label)}
            </HeaderField>
            <HeaderField label={t('orders.summary.icd10')}>
              {icd10List(r.tumorSpecimen?.icd10Codes).join(', ')}
            </HeaderField>
            <HeaderField label={t('orders.summary.initialTrf')}>
              {r.parentTestOrderForm?.testRequisitionId}
            </HeaderField>
            <HeaderField label={t('orders.summary.provider')}>{r.physician?.name}</HeaderField>
            <HeaderField label={t('orders.summary.npi')}>{r.physician?.userId}</HeaderField>
            <HeaderField label={t('orders.summary.location')}>{r.hospitalLocation?.name}</HeaderField>
            <HeaderField label={t('orders.summary.address')}>
              {addressText(r.hospitalLocation?.address)}
            </HeaderField>
            <HeaderField label={t('orders.summary.authorization')}>
              {approval
                ? t('orders.summary.signedBy', {
                    name: approval.approvedBy?.name ?? '',
                    date: formatDateTime(approval.createdOn),
                  })
                : t('orders.summary.notSigned')}
            </HeaderField>
          </Box>
          <Box sx={{ display: 'flex', gap: 1.5, mt: 2.5, flexWrap: 'wrap' }} data-testid="summary-progress">
            <ProgressBox
              label={t('orders.summary.progress.ordered')}
              count={progress.ordered}
              color="info.main"
            />
            <ProgressBox
              label={t('orders.summary.progress.inProgress')}
              count={progress.inProgress}
              color="warning.dark"
            />
            <ProgressBox
              label={t('orders.summary.progress.complete')}
              count={progress.complete}
              color="success.main"
            />
          </Box>
        </Paper>
        <Paper variant="outlined" sx={{ borderRadius: 2, mb: 2 }}>
          <Tabs
            value={tab}
            onChange={(_, v: SummaryTab) =>
              navigate(`/order/${encodeURIComponent(id)}/summary/${v}`, { replace: true })
            }
            variant="scrollable"
            scrollButtons="auto"
          >
            {SUMMARY_TABS.map((k) => (
              <Tab key={k} value={k} label={tabLabel(k)} data-testid={`summary-tab-${k}`} />
            ))}
          </Tabs>
        </Paper>
        {editing ? <EditPanel values={editing} onChange={setEditing} /> : null}
        <Box data-testid={`summary-panel-${tab}`}>
          {tab === 'patient' ? <PatientTab r={r} /> : null}
          {tab === 'provider' ? <ProviderTab r={r} /> : null}
          {tab === 'billing' ? (
            <>
              <BillingReviewControl
                key={`${r.id}-${r.billingReview?.status ?? ''}`}
                requisitionId={r.id}
                status={(r.billingReview?.status ?? null) as BillingReviewStatus | null}
                submitted={r.status === 'SUBMITTED' && !r.deleted}
                onChanged={() => void query.refetch()}
              />
              <BillingTab r={r} />
            </>
          ) : null}
          {tab === 'attachments' ? <AttachmentsTab r={r} /> : null}
          {tab === 'samples' ? <SamplesTab r={r} /> : null}
          {tab === 'tests' ? <OrderTestsTab requisitionId={r.id} draft={r.status === 'DRAFT'} /> : null}
          {tab === 'timeline' ? <OrderTimeline requisitionId={r.id} /> : null}
        </Box>
      </CommentsLayout>

      <PdfViewerDialog
        open={printing}
        title={t('orders.summary.pdfTitle')}
        load={() => loadTrfPdf(r.id)}
        onClose={() => setPrinting(false)}
      />
      <ConfirmDialog
        open={confirm === 'copy'}
        message={t('orders.summary.confirmCopy', {
          patient: p.userId ?? '',
          diagnosis: diagnosisText(r.tumorSpecimen),
        })}
        onClose={() => setConfirm(null)}
        onConfirm={doCopy}
      />
      <ConfirmDialog
        open={confirm === 'edit'}
        message={t('orders.summary.confirmEdit')}
        onClose={() => setConfirm(null)}
        onConfirm={doSave}
      />
      <ConfirmDialog
        open={confirm === 'delete'}
        kind="warning"
        title={t('orders.confirmDeleteTitle')}
        message={t('orders.confirmDeleteMessage', { trf: r.testRequisitionId ?? '' })}
        onClose={() => setConfirm(null)}
        onConfirm={doDelete}
      />
      {subsequent ? (
        <SubsequentOrderDialog
          open
          requisitionId={r.id}
          patientNumber={p.userId ?? ''}
          onClose={() => setSubsequent(false)}
          onCreated={(newId) => {
            setSubsequent(false);
            navigate(`/order/${encodeURIComponent(newId)}`, { state: { from: 'orders' } });
          }}
        />
      ) : null}
    </Box>
  );
}

export default OrderSummaryPage;
