import { useMemo, useState } from 'react';
import { usePermissions } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { ListPage, type FacetFilterDef } from '../../../components';
import { readSession } from '../../../providers/session';
import { rememberActiveMenu } from '../../../layout/menu';
import { useOrdersColumns } from './columns';
import {
  canStartOrder,
  csvAllowed,
  deleteColumnShown,
  deletedToggleShown,
  initialTab,
  ordersBaseFilter,
  rowTarget,
  type OrdersNavState,
  type OrdersTab,
  type RequisitionRow,
} from './logic';
import { OrdersListDialogs, useOrderDialogs } from './OrdersListDialogs';
import { OrdersBannerActions, OrdersToolbar } from './OrdersToolbar';
import { useOrdersDownloads } from './useOrdersDownloads';
import { useEnumLabel, useOrdersT } from './useOrdersT';

export { ordersEn, ordersZh } from './i18n';

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
  const { permissions = [] } = usePermissions<string[]>();
  const role = readSession()?.role ?? null;

  const [tab, setTab] = useState<OrdersTab>(() => initialTab(location.state));
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [reviewStatus, setReviewStatus] = useState<string | null>(navState.reviewStatus ?? null);
  // opened on a dashboard counter: what it counted, without the filters remembered from earlier visits
  const [onCounter] = useState(() => Boolean(navState.reviewStatus));
  const dialogs = useOrderDialogs();
  const { downloading, downloadBlank, downloadCsv } = useOrdersDownloads();

  const showDelete = deleteColumnShown(tab, permissions);
  const showDeletedToggle = deletedToggleShown(tab, permissions);
  const baseFilter = useMemo(
    () => ordersBaseFilter(tab, { includeDeleted: showDeletedToggle && includeDeleted, reviewStatus }),
    [tab, showDeletedToggle, includeDeleted, reviewStatus],
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

  const columns = useOrdersColumns({
    tab,
    showDelete,
    permissions,
    onPdf: dialogs.setPdfOf,
    onSubsequent: dialogs.setSubsequentOf,
    onDelete: dialogs.setToDelete,
  });

  const bannerRight = (
    <OrdersBannerActions
      downloading={downloading === 'blank'}
      onDownload={downloadBlank}
      canStart={canStartOrder(role)}
    />
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
        <OrdersToolbar
          tab={tab}
          onTab={setTab}
          reviewStatus={reviewStatus}
          onClearReview={() => setReviewStatus(null)}
          showDelete={showDeletedToggle}
          includeDeleted={includeDeleted}
          onIncludeDeleted={setIncludeDeleted}
          csv={csvAllowed(tab, permissions)}
          downloadingCsv={downloading === 'csv'}
          onCsv={() => downloadCsv(ctx)}
        />
      )}
    >
      {(ctx) => <OrdersListDialogs ctx={ctx} dialogs={dialogs} />}
    </ListPage>
  );
}

export default OrdersListPage;
