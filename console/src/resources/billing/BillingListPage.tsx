import { useMemo, useState } from 'react';
import { Box, Button, Chip, FormControlLabel, IconButton, Link, Switch, Tooltip } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import { usePermissions } from 'react-admin';
import { useLocation } from 'react-router-dom';
import {
  billingStatusGroup,
  canSubmitCase,
  DOC_UPLOAD_AGAIN_STATUSES,
  isBillingErrorStatus,
} from '@onco/domain';
import {
  ActionsMenu,
  DateText,
  enumColumn,
  ListPage,
  NavFilterChip,
  Poller,
  RowLink,
  selectionActionDone,
  Truncate,
  useToast,
  type Column,
  type FacetFilterDef,
} from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingMethods } from './useBillingMethods';
import type { BillingCaseRow } from './api';
import {
  AssignDialog,
  BulkSubmitDialog,
  ErrorDetailsDialog,
  HistoryDialog,
  StatusDialog,
  TextActionDialog,
  useBillingT,
} from './BillingDialogs';
import {
  BILLING_POLL_MS,
  billingActions,
  billingBaseFilter,
  initialBillingState,
  needsPolling,
  opensOnCounter,
  statusColour,
} from './logic';

type DialogKind = 'billingCode' | 'timePoint' | 'assign' | 'status' | 'submit';

/**
 * Billing cases (/billing, spec 3 section 2.9): Test Type, Test Status, Billing Review Status, Billing Status and
 * Assignee filters from the server's facets, search, page sizes, multi-select, the Actions dropdown with
 * VIEW_BILLING_ACTIONS, every column with its links, the Submit button (enabled exactly when @onco/domain's
 * canSubmitCase holds; the server checks it again), the History dialog and the error-details modal.
 */
export function BillingListPage() {
  const t = useBillingT();
  const label = useEnumLabel();
  const toast = useToast();
  const billing = useBillingMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  const [history, setHistory] = useState<BillingCaseRow | null>(null);
  const [errorOf, setErrorOf] = useState<BillingCaseRow | null>(null);
  const [submitting, setSubmitting] = useState<string | null>(null);
  const canAct = permissions.includes('VIEW_BILLING_ACTIONS');
  const location = useLocation();
  const initial = useMemo(() => initialBillingState(location.state), [location.state]);
  const [needsAttention, setNeedsAttention] = useState(initial.needsAttention);
  // the dashboard's Billing Review counter: shown as a chip that can be removed, like the other lists' presets
  const [navReview, setNavReview] = useState<string | null>(initial.billingReviewStatus);
  const [onCounter] = useState(() => opensOnCounter(initial));
  const baseFilter = useMemo(
    () => billingBaseFilter({ billingReviewStatus: navReview, needsAttention }),
    [navReview, needsAttention],
  );

  const facets: FacetFilterDef[] = [
    { name: 'test_type_facet', field: 'testType', label: t('billing.facet.testType') },
    { name: 'test_status_facet', field: 'testStatus', label: t('billing.facet.testStatus') },
    { name: 'review_status_facet', field: 'reviewStatus', label: t('billing.facet.reviewStatus') },
    { name: 'case_status_facet', field: 'caseStatus', label: t('billing.facet.caseStatus') },
    { name: 'assignee_name_facet', field: 'assigneeName', label: t('billing.facet.assignee') },
  ].map((f) => ({
    ...f,
    itemLabel: (item) =>
      f.field === 'assigneeName'
        ? String(item.value ?? '')
        : label(item.value == null ? '' : String(item.value)),
  }));

  return (
    <ListPage<BillingCaseRow>
      resource="billingCases"
      listName="billing"
      title={t('billing.title')}
      subtitle={t('billing.subtitle')}
      facets={facets}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      emptyText={t('billing.empty')}
      searchPlaceholder={t('billing.searchPlaceholder')}
      selection="multi"
      baseFilter={baseFilter}
      rememberFilters={!onCounter}
      bannerRight={
        <Tooltip title={t('billing.needsAttentionHint')}>
          <FormControlLabel
            control={
              <Switch
                checked={needsAttention}
                onChange={(e) => setNeedsAttention(e.target.checked)}
                // readable on the banner's dark green: a white thumb, a light track
                sx={{
                  '& .MuiSwitch-switchBase.Mui-checked': { color: '#fff' },
                  '& .MuiSwitch-switchBase.Mui-checked + .MuiSwitch-track': {
                    bgcolor: '#c8e6c9',
                    opacity: 1,
                  },
                  '& .MuiSwitch-track': { bgcolor: 'rgba(255,255,255,0.5)' },
                }}
                data-testid="billing-needs-attention-toggle"
              />
            }
            label={t('billing.needsAttention')}
          />
        </Tooltip>
      }
      actions={(ctx) => (
        <>
          {navReview ? (
            <NavFilterChip
              label={`${t('billing.facet.reviewStatus')}: ${label(navReview)}`}
              onDelete={() => setNavReview(null)}
              testId="billing-nav-review"
            />
          ) : null}
          {canAct ? (
            <ActionsMenu
              label={t('billing.actions')}
              testId="billing-actions"
              actions={(['billingCode', 'assign', 'timePoint', 'status', 'submit'] as const).map((k) => ({
                key: k,
                label: t(`billing.action.${k}`),
                disabled: !billingActions(ctx.selected, permissions)[k],
                testId: `billing-action-${k}`,
                onClick: () => setDialog(k),
              }))}
            />
          ) : null}
        </>
      )}
      columns={(ctx) => {
        const submit = async (row: BillingCaseRow) => {
          setSubmitting(row.id);
          try {
            const res = await billing.submitBillingCase({ id: row.id });
            toast('success', res.data?.message || t('billing.submitted'));
            ctx.refresh();
          } catch (e) {
            const body = (e as { body?: { errorDetails?: string; message?: string } })?.body;
            toast(
              'error',
              body?.errorDetails || body?.message || (e as Error)?.message || t('billing.submitFailed'),
            );
          } finally {
            setSubmitting(null);
          }
        };
        const uploadAgain = async (row: BillingCaseRow) => {
          setSubmitting(row.id);
          try {
            await billing.uploadDocumentsAgain({ id: row.id });
            toast('success', t('billing.uploadAgainDone'));
            ctx.refresh();
          } catch (e) {
            const body = (e as { body?: { message?: string } })?.body;
            toast('error', body?.message || (e as Error)?.message || t('billing.submitFailed'));
          } finally {
            setSubmitting(null);
          }
        };
        const columns: Column<BillingCaseRow>[] = [
          {
            source: 'testId',
            label: t('billing.col.testId'),
            sortable: true,
            render: (r) => (
              <RowLink to={`/test/${encodeURIComponent(r.testOrderId)}`}>{r.testId ?? r.testOrderId}</RowLink>
            ),
          },
          {
            source: 'testRequisitionId',
            label: t('billing.col.trf'),
            sortable: true,
            render: (r) =>
              r.testOrderFormId ? (
                <RowLink to={`/order/${encodeURIComponent(r.testOrderFormId)}`}>
                  {r.testRequisitionId ?? ''}
                </RowLink>
              ) : (
                (r.testRequisitionId ?? '')
              ),
          },
          {
            source: 'accountName',
            label: t('billing.col.account'),
            sortable: true,
            render: (r) => <Truncate text={r.accountName ?? r.account?.name ?? ''} />,
          },
          {
            source: 'physician',
            label: t('billing.col.provider'),
            sortable: true,
            sortField: 'physicianName',
            render: (r) => <Truncate text={r.physician?.name ?? ''} />,
          },
          {
            source: 'patient',
            label: t('billing.col.patient'),
            sortable: true,
            sortField: 'patientName',
            render: (r) =>
              r.patient?.id ? (
                <RowLink to={`/patient/${encodeURIComponent(r.patient.id)}`}>
                  <Truncate text={r.patient.name ?? ''} />
                </RowLink>
              ) : (
                (r.patient?.name ?? '')
              ),
          },
          enumColumn('testType', t('billing.col.testType'), label),
          enumColumn('orderType', t('billing.col.orderType'), label),
          { source: 'timePoint', label: t('billing.col.timePoint'), sortable: true },
          { source: 'billingCode', label: t('billing.col.billingCode'), sortable: true },
          enumColumn('testStatus', t('billing.col.testStatus'), label),
          enumColumn('reviewStatus', t('billing.col.reviewStatus'), label),
          {
            source: 'caseStatus',
            label: t('billing.col.caseStatus'),
            sortable: true,
            render: (r) => (
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
                {isBillingErrorStatus(r.caseStatus) ? (
                  <Link
                    component="button"
                    variant="body2"
                    sx={{ color: statusColour(r.caseStatus), fontWeight: 600 }}
                    onClick={(e: React.MouseEvent) => {
                      e.stopPropagation();
                      setErrorOf(r);
                    }}
                    data-testid={`billing-error-${r.id}`}
                  >
                    {label(r.caseStatus)}
                  </Link>
                ) : (
                  <Box component="span" sx={{ color: statusColour(r.caseStatus) }}>
                    {label(r.caseStatus)}
                  </Box>
                )}
                <StatusGroupChip status={r.caseStatus} />
                {canAct && r.caseStatus && DOC_UPLOAD_AGAIN_STATUSES.includes(r.caseStatus) ? (
                  // what was not taken is in the tooltip (and in the History dialog)
                  <Tooltip title={[t('billing.uploadAgain'), r.errorDetails].filter(Boolean).join(': ')}>
                    <span>
                      <IconButton
                        size="small"
                        aria-label={t('billing.uploadAgain')}
                        disabled={submitting === r.id}
                        onClick={(e) => {
                          e.stopPropagation();
                          void uploadAgain(r);
                        }}
                        data-testid={`billing-docs-again-${r.id}`}
                      >
                        <CloudUploadIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                ) : null}
              </Box>
            ),
          },
          {
            source: 'assignee',
            label: t('billing.col.assignee'),
            sortable: true,
            sortField: 'assigneeName',
            render: (r) => r.assignee?.name ?? '',
          },
          {
            source: 'caseQualifiedDate',
            label: t('billing.col.qualified'),
            sortable: true,
            render: (r) => <DateText value={r.caseQualifiedDate} />,
          },
          {
            source: 'submit',
            label: t('billing.col.submit'),
            align: 'center',
            render: (r) => (
              <Button
                size="small"
                variant="contained"
                disabled={!canAct || submitting === r.id || !canSubmitCase(r)}
                onClick={(e) => {
                  e.stopPropagation();
                  void submit(r);
                }}
                data-testid={`billing-submit-${r.id}`}
              >
                {t('billing.submit')}
              </Button>
            ),
          },
          {
            source: 'history',
            label: t('billing.col.history'),
            align: 'center',
            render: (r) => (
              <Tooltip title={t('billing.historyTitle')}>
                <IconButton
                  size="small"
                  onClick={(e) => {
                    e.stopPropagation();
                    setHistory(r);
                  }}
                  data-testid={`billing-history-${r.id}`}
                >
                  <HistoryIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            ),
          },
        ];
        return columns;
      }}
    >
      {(ctx) => {
        const done = selectionActionDone(ctx, () => setDialog(null));
        const one = ctx.selected[0];
        return (
          <>
            <Poller active={needsPolling(ctx.rows)} refresh={ctx.refresh} everyMs={BILLING_POLL_MS} />
            {dialog === 'billingCode' && one ? (
              <TextActionDialog kind="billingCode" row={one} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {dialog === 'timePoint' && one ? (
              <TextActionDialog kind="timePoint" row={one} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {dialog === 'assign' ? (
              <AssignDialog rows={ctx.selected} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {dialog === 'status' ? (
              <StatusDialog rows={ctx.selected} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {dialog === 'submit' ? (
              <BulkSubmitDialog rows={ctx.selected} onClose={() => setDialog(null)} onDone={done} />
            ) : null}
            {history ? <HistoryDialog row={history} onClose={() => setHistory(null)} /> : null}
            {errorOf ? <ErrorDetailsDialog row={errorOf} onClose={() => setErrorOf(null)} /> : null}
          </>
        );
      }}
    </ListPage>
  );
}

export default BillingListPage;

/** The displayed value of a status's group (spec 3 section 4.3: COMPLETED, ERROR, FAILED), as a small chip. */
function StatusGroupChip({ status }: { status: BillingCaseRow['caseStatus'] }) {
  const t = useBillingT();
  const group = billingStatusGroup(status);
  if (!group) return null;
  const colour = group === 'COMPLETED' ? 'success' : 'error';
  return (
    <Chip
      size="small"
      variant={group === 'FAILED' ? 'filled' : 'outlined'}
      color={colour}
      label={t(`billing.group.${group}`)}
      data-testid="billing-status-group"
      sx={{ height: 20, fontSize: 11 }}
    />
  );
}
