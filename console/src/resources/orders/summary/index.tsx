import { useState } from 'react';
import { Alert, Box, Skeleton } from '@mui/material';
import { mergeTrfProblem, reviewerEditsSpecimens } from '@onco/domain';
import { usePermissions } from 'react-admin';
import { Navigate, useParams } from 'react-router-dom';
import { Banner, CommentsLayout, PdfViewerDialog } from '../../../components';
import { useEnumLabel, useOrdersT } from '../list/useOrdersT';
import { errorText, loadTrfPdf } from './api';
import { CommentsPanel } from './CommentsPanel';
import { EditPanel, initialEditValues, REVIEWER_EDIT_BLOCKS, type EditValues } from './EditPanel';
import { SummaryActions, type SummaryConfirm } from './SummaryActions';
import { SummaryConfirmDialogs, SummaryMergeDialog, SummarySubsequentDialog } from './SummaryDialogs';
import { SummaryHeader, SummaryNotices } from './SummaryHeader';
import { SUMMARY_TABS, SummaryTabBar, SummaryTabPanel, type SummaryTab } from './SummaryTabs';
import { useSummaryQuery } from './useSummaryData';

export { SUMMARY_TABS, type SummaryTab } from './SummaryTabs';

const NO_ACTIONS = { print: false, copy: false, edit: false, delete: false, subsequentOrder: false };

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
  const { permissions = [] } = usePermissions<string[]>();
  const [printing, setPrinting] = useState(false);
  const [confirm, setConfirm] = useState<SummaryConfirm | null>(null);
  const [editing, setEditing] = useState<EditValues | null>(null);
  const [subsequent, setSubsequent] = useState(false);
  const [merging, setMerging] = useState(false);

  const query = useSummaryQuery(id);
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

  const actions = r.actions ?? NO_ACTIONS;
  const p = r.patient ?? {};
  const reviewerEdit = reviewerEditsSpecimens(r, permissions, actions.edit);
  const allowed = {
    print: actions.print,
    // Copy is not offered while the order is being edited (spec 1 section 4)
    copy: actions.copy && !editing && permissions.includes('CAN_CREATE_TRF'),
    // Edit; a clinical reviewer without it edits the specimens (spec 1 section 4)
    edit: (actions.edit || reviewerEdit) && !editing,
    save: Boolean(editing),
    subsequentOrder: actions.subsequentOrder,
    // Merge TRF (spec 2 section 6): a submitted form with no cancelled test; the server checks both forms again
    merge:
      permissions.includes('CAN_MERGE_TRF') &&
      !editing &&
      mergeTrfProblem({ ...r, testStatuses: (r.testOrders ?? []).map((x) => x.status) }) === null,
    message: r.status === 'SUBMITTED' && permissions.includes('VIEW_MESSAGES_PAGE'),
    delete: actions.delete,
  };

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="order-summary">
      <Banner
        title={`${t('orders.summary.bannerTitle')}${r.testRequisitionId ? ` : ${r.testRequisitionId}` : ''}`}
        subtitle={label(r.status)}
        right={
          <SummaryActions
            r={r}
            allowed={allowed}
            onPrint={() => setPrinting(true)}
            onConfirm={setConfirm}
            onEdit={() =>
              setEditing(actions.edit ? initialEditValues(r) : initialEditValues(r, REVIEWER_EDIT_BLOCKS))
            }
            onCancelEdit={() => setEditing(null)}
            onSubsequent={() => setSubsequent(true)}
            onMerge={() => setMerging(true)}
          />
        }
      />
      <SummaryNotices r={r} />
      {merging && p.id ? (
        <SummaryMergeDialog
          r={r}
          patientId={p.id}
          onClose={() => setMerging(false)}
          refetch={query.refetch}
        />
      ) : null}
      <CommentsLayout comments={<CommentsPanel requisitionId={r.id} />}>
        <SummaryHeader r={r} onChanged={() => void query.refetch()} />
        <SummaryTabBar id={id} tab={tab} />
        {editing ? <EditPanel r={r} values={editing} onChange={setEditing} /> : null}
        <SummaryTabPanel r={r} tab={tab} onChanged={() => void query.refetch()} />
      </CommentsLayout>

      <PdfViewerDialog
        open={printing}
        title={t('orders.summary.pdfTitle')}
        load={() => loadTrfPdf(r.id)}
        onClose={() => setPrinting(false)}
      />
      <SummaryConfirmDialogs
        r={r}
        confirm={confirm}
        setConfirm={setConfirm}
        editing={editing}
        setEditing={setEditing}
        refetch={query.refetch}
      />
      {subsequent ? <SummarySubsequentDialog r={r} onClose={() => setSubsequent(false)} /> : null}
    </Box>
  );
}

export default OrderSummaryPage;
