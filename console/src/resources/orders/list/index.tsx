import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Chip,
  FormControlLabel,
  IconButton,
  Link,
  Switch,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import { useDataProvider, usePermissions } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  ConfirmDialog,
  DateText,
  ListPage,
  PdfViewerDialog,
  Truncate,
  useToast,
  type Column,
  type FacetFilterDef,
  type ListContext,
} from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { readSession } from '../../../providers/session';
import { rememberActiveMenu } from '../../../layout/menu';
import {
  canStartOrder,
  csvAllowed,
  deleteColumnShown,
  diagnosisText,
  initialTab,
  locationText,
  ordersBaseFilter,
  patientName,
  rowActions,
  rowTarget,
  testsText,
  trfAttachments,
  type OrdersNavState,
  type OrdersTab,
  type RequisitionRow,
} from './logic';
import { useEnumLabel, useOrdersT } from './useOrdersT';
import { loadTrfPdf } from '../summary/api';
import { SubsequentOrderDialog } from '../summary/SubsequentOrderDialog';

export { ordersEn, ordersZh } from './i18n';

/** yyyyMMdd_HHmmss (spec 2 section 9's export timestamp), local time. */
function stamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}_${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

const qs = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`)
    .join('&');

/**
 * The orders list (/orders, spec 2 section 2.2): Draft / Submitted, facet filters, search, page sizes, the
 * requisition columns, row click to the wizard (draft) or the summary, the blank TRF and CSV downloads, and on
 * Submitted with CAN_DELETE_TRF the Delete column and the 'Deleted included' toggle.
 */
export function OrdersListPage() {
  const t = useOrdersT();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const location = useLocation();
  const navState = (location.state ?? {}) as OrdersNavState;
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const toast = useToast();
  const { permissions = [] } = usePermissions<string[]>();
  const role = readSession()?.role ?? null;

  const [tab, setTab] = useState<OrdersTab>(() => initialTab(location.state));
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [reviewStatus, setReviewStatus] = useState<string | null>(navState.reviewStatus ?? null);
  // opened on a dashboard counter: what it counted, without the filters remembered from earlier visits
  const [onCounter] = useState(() => Boolean(navState.reviewStatus));
  const [toDelete, setToDelete] = useState<RequisitionRow | null>(null);
  const [pdfOf, setPdfOf] = useState<RequisitionRow | null>(null);
  const [subsequentOf, setSubsequentOf] = useState<RequisitionRow | null>(null);
  const [downloading, setDownloading] = useState<'blank' | 'csv' | null>(null);

  const showDelete = deleteColumnShown(tab, permissions);
  const baseFilter = useMemo(
    () => ordersBaseFilter(tab, { includeDeleted: showDelete && includeDeleted, reviewStatus }),
    [tab, showDelete, includeDeleted, reviewStatus],
  );

  const open = (row: RequisitionRow) => {
    rememberActiveMenu('orders');
    navigate(rowTarget(row), { state: { payload: row, from: 'orders' } });
  };

  const facets: FacetFilterDef[] = [
    { name: 'test_status_facet', field: 'testStatus', label: t('orders.facet.testStatus') },
    { name: 'clinical_review_facet', field: 'clinicalReviewStatus', label: t('orders.facet.clinicalReview') },
    { name: 'billing_review_facet', field: 'billingReviewStatus', label: t('orders.facet.billingReview') },
    { name: 'physician_facet', field: 'physicianName', label: t('orders.facet.physician') },
    { name: 'account_facet', field: 'accountName', label: t('orders.facet.account') },
    { name: 'hospital_location_facet', field: 'locationName', label: t('orders.facet.location') },
    { name: 'diagnosis_facet', field: 'diagnosis', label: t('orders.facet.diagnosis') },
    { name: 'test_type_facet', field: 'testType', label: t('orders.facet.testType') },
    { name: 'sample_status_facet', field: 'sampleStatus', label: t('orders.facet.sampleStatus') },
    { name: 'order_type_facet', field: 'orderType', label: t('orders.facet.orderType') },
  ].map((f) => ({
    ...f,
    itemLabel: (item) =>
      item.label ??
      (['physicianName', 'accountName', 'locationName'].includes(f.field)
        ? String(item.value ?? '')
        : label(item.value == null ? '' : String(item.value))),
  }));

  const columns: Column<RequisitionRow>[] = [
    {
      source: 'testRequisitionId',
      label: t('orders.col.trf'),
      sortable: true,
      render: (r) => (
        <Box component="span" sx={{ fontWeight: 600, color: 'primary.dark' }}>
          {r.testRequisitionId ?? ''}
          {r.deleted ? (
            <Chip size="small" color="error" variant="outlined" label={t('orders.deleted')} sx={{ ml: 1 }} />
          ) : null}
        </Box>
      ),
    },
    {
      source: 'parentTestOrderForm',
      label: t('orders.col.initialTrf'),
      sortable: true,
      sortField: 'parentTestRequisitionId',
      render: (r) => r.parentTestOrderForm?.testRequisitionId ?? '',
    },
    {
      source: 'patient',
      label: t('orders.col.patient'),
      sortable: true,
      sortField: 'patientName',
      render: (r) => <Truncate text={patientName(r.patient)} />,
    },
    {
      source: 'account',
      label: t('orders.col.account'),
      sortable: true,
      sortField: 'accountName',
      render: (r) => <Truncate text={r.account?.name ?? ''} max={30} />,
    },
    {
      source: 'hospitalLocation',
      label: t('orders.col.location'),
      sortable: true,
      sortField: 'locationName',
      render: (r) => <Truncate text={locationText(r.hospitalLocation)} max={30} />,
    },
    {
      source: 'physician',
      label: t('orders.col.physician'),
      sortable: true,
      sortField: 'physicianName',
      render: (r) => <Truncate text={r.physician?.name ?? ''} />,
    },
    {
      source: 'tumorSpecimen',
      label: t('orders.col.diagnosis'),
      sortable: true,
      sortField: 'diagnosis',
      render: (r) => <Truncate text={diagnosisText(r.tumorSpecimen, label)} />,
    },
    {
      source: 'testOrders',
      label: t('orders.col.tests'),
      render: (r) => <Truncate text={testsText(r.testOrders, label)} max={40} />,
    },
    {
      source: 'sampleStatuses',
      label: t('orders.col.sampleStatuses'),
      render: (r) => <Truncate text={(r.sampleStatuses ?? []).map(label).join(', ')} />,
    },
    {
      source: 'attachments',
      label: t('orders.col.attachments'),
      render: (r) => {
        const names = trfAttachments(r);
        if (!names.length) return '';
        // the latest TRF opens in the PDF viewer (the same file Print serves on the summary)
        return rowActions(r, permissions).print ? (
          <Link
            component="button"
            variant="body2"
            title={t('orders.openTrf')}
            data-testid={`trf-${r.id}`}
            onClick={(e: React.MouseEvent) => {
              e.stopPropagation();
              setPdfOf(r);
            }}
          >
            <Truncate text={names[0]} />
          </Link>
        ) : (
          <Truncate text={names.join(', ')} />
        );
      },
    },
    {
      source: 'createdOn',
      label: t('orders.col.created'),
      sortable: true,
      render: (r) => <DateText value={r.createdOn} />,
    },
    {
      source: 'updatedOn',
      label: t('orders.col.updated'),
      sortable: true,
      render: (r) => <DateText value={r.updatedOn} />,
    },
  ];
  if (tab === 'SUBMITTED') {
    // the one-click subsequent order (spec 1 section 4's rule, decided by the server for each row)
    columns.push({
      source: 'subsequent',
      label: t('orders.col.subsequent'),
      align: 'center',
      render: (r) =>
        rowActions(r, permissions).subsequentOrder ? (
          <Button
            size="small"
            variant="outlined"
            data-testid={`subsequent-${r.id}`}
            onClick={(e) => {
              e.stopPropagation();
              setSubsequentOf(r);
            }}
          >
            {t('orders.orderButton')}
          </Button>
        ) : null,
    });
  }
  if (showDelete) {
    columns.push({
      source: 'delete',
      label: t('orders.col.delete'),
      align: 'center',
      render: (r) => {
        const allowed = rowActions(r, permissions).delete;
        return (
          <Tooltip title={t('orders.col.delete')}>
            <span>
              <IconButton
                size="small"
                color="error"
                disabled={!allowed}
                aria-label={`${t('orders.col.delete')} ${r.testRequisitionId ?? ''}`}
                data-testid={`delete-${r.id}`}
                onClick={(e) => {
                  e.stopPropagation();
                  setToDelete(r);
                }}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        );
      },
    });
  }

  const downloadBlank = async () => {
    setDownloading('blank');
    try {
      await dataProvider.download({ path: 'testOrderForms/downloadBlankForm', fileName: 'TRF Document.pdf' });
    } catch (e) {
      toast('error', (e as Error).message || t('orders.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  const downloadCsv = async (ctx: ListContext<RequisitionRow>) => {
    setDownloading('csv');
    try {
      const query = qs({
        filter: ctx.filter,
        sort: ctx.state.sort.field,
        sortOrder: ctx.state.sort.order.toLowerCase(),
      });
      await dataProvider.download({
        path: `testOrderForms/export?${query}`,
        fileName: `orders_${stamp()}.csv`,
      });
    } catch (e) {
      toast('error', (e as Error).message || t('orders.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  const bannerRight = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      <Button
        variant="outlined"
        color="inherit"
        startIcon={<PictureAsPdfOutlinedIcon />}
        onClick={downloadBlank}
        disabled={downloading === 'blank'}
        sx={{ borderColor: 'rgba(255,255,255,0.6)' }}
      >
        {t('orders.downloadBlank')}
      </Button>
      <Button
        variant="contained"
        color="secondary"
        startIcon={<AddIcon />}
        disabled={!canStartOrder(role)}
        onClick={() => {
          rememberActiveMenu('orders');
          navigate('/order/new', { state: { selectedOrder: null, from: 'orders' } });
        }}
      >
        {t('orders.startNew')}
      </Button>
    </Box>
  );

  return (
    <ListPage<RequisitionRow>
      key={`${tab}-${includeDeleted}-${reviewStatus ?? ''}`}
      resource="testOrderForms"
      listName="orders"
      title={t('orders.title')}
      subtitle={t('orders.subtitle')}
      bannerRight={bannerRight}
      columns={columns}
      facets={facets}
      baseFilter={baseFilter}
      rememberFilters={!onCounter}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      emptyText={t('orders.empty')}
      searchPlaceholder={t('orders.searchPlaceholder')}
      onRowClick={open}
      actions={(ctx) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          <ToggleButtonGroup
            size="small"
            exclusive
            color="primary"
            value={tab}
            onChange={(_, v: OrdersTab | null) => {
              if (v) setTab(v);
            }}
            aria-label={t('orders.title')}
          >
            <ToggleButton value="DRAFT" data-testid="tab-draft" sx={{ px: 2 }}>
              {t('orders.draft')}
            </ToggleButton>
            <ToggleButton value="SUBMITTED" data-testid="tab-submitted" sx={{ px: 2 }}>
              {t('orders.submitted')}
            </ToggleButton>
          </ToggleButtonGroup>
          {reviewStatus && tab === 'SUBMITTED' ? (
            <Chip
              size="small"
              color="primary"
              variant="outlined"
              label={t('orders.reviewFilter', { status: label(reviewStatus) })}
              onDelete={() => setReviewStatus(null)}
            />
          ) : null}
          {showDelete ? (
            <FormControlLabel
              control={
                <Switch
                  size="small"
                  checked={includeDeleted}
                  onChange={(e) => setIncludeDeleted(e.target.checked)}
                />
              }
              label={<Typography variant="body2">{t('orders.deletedIncluded')}</Typography>}
            />
          ) : null}
          {csvAllowed(tab, permissions) ? (
            <Button
              size="small"
              variant="outlined"
              startIcon={<FileDownloadOutlinedIcon />}
              disabled={downloading === 'csv'}
              onClick={() => downloadCsv(ctx)}
            >
              {t('orders.downloadCsv')}
            </Button>
          ) : null}
        </Box>
      )}
    >
      {(ctx) => (
        <>
          <PdfViewerDialog
            open={Boolean(pdfOf)}
            title={t('orders.summary.pdfTitle')}
            load={() => loadTrfPdf(pdfOf!.id)}
            onClose={() => setPdfOf(null)}
          />
          {subsequentOf ? (
            <SubsequentOrderDialog
              open
              requisitionId={subsequentOf.id}
              patientNumber={subsequentOf.patient?.userId ?? ''}
              onClose={() => setSubsequentOf(null)}
              onCreated={(newId) => {
                setSubsequentOf(null);
                rememberActiveMenu('orders');
                navigate(`/order/${encodeURIComponent(newId)}`, { state: { from: 'orders' } });
              }}
            />
          ) : null}
          <ConfirmDialog
            open={Boolean(toDelete)}
            kind="warning"
            title={t('orders.confirmDeleteTitle')}
            message={t('orders.confirmDeleteMessage', { trf: toDelete?.testRequisitionId ?? '' })}
            onClose={() => setToDelete(null)}
            onConfirm={async () => {
              if (!toDelete) return;
              try {
                await dataProvider.delete('testOrderForms', { id: toDelete.id, previousData: toDelete });
                toast('success', t('orders.deletedToast'));
                setToDelete(null);
                ctx.refresh();
              } catch (e) {
                toast('error', (e as Error).message || t('orders.deleteFailed'));
                setToDelete(null);
              }
            }}
          />
        </>
      )}
    </ListPage>
  );
}

export default OrdersListPage;
