import { Box, Button, Chip, IconButton, Link, Tooltip } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { DateText, Truncate, type Column } from '../../../components';
import {
  diagnosisText,
  locationText,
  patientName,
  rowActions,
  testsText,
  trfAttachments,
  type OrdersTab,
  type RequisitionRow,
} from './logic';
import { useEnumLabel, useOrdersT } from './useOrdersT';

type T = ReturnType<typeof useOrdersT>;
type Label = ReturnType<typeof useEnumLabel>;

/** A cell's click that does `act` without also opening the row. */
const cellClick = (act: () => void) => (e: { stopPropagation: () => void }) => {
  e.stopPropagation();
  act();
};

const dateColumn = (source: 'createdOn' | 'updatedOn', label: string): Column<RequisitionRow> => ({
  source,
  label,
  sortable: true,
  render: (r) => <DateText value={r[source]} />,
});

/**
 * The orders table's columns: the requisition's, then on Submitted the one-click subsequent order, and the Delete
 * column where it shows.
 */
export function useOrdersColumns(props: {
  tab: OrdersTab;
  showDelete: boolean;
  permissions: string[];
  onPdf: (row: RequisitionRow) => void;
  onSubsequent: (row: RequisitionRow) => void;
  onDelete: (row: RequisitionRow) => void;
}): Column<RequisitionRow>[] {
  const { tab, permissions } = props;
  const t = useOrdersT();
  const label = useEnumLabel();
  const columns = requisitionColumns(t, label, permissions, props.onPdf);
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
            onClick={cellClick(() => props.onSubsequent(r))}
          >
            {t('orders.orderButton')}
          </Button>
        ) : null,
    });
  }
  if (props.showDelete) {
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
                onClick={cellClick(() => props.onDelete(r))}
              >
                <DeleteOutlineIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        );
      },
    });
  }
  return columns;
}

function requisitionColumns(
  t: T,
  label: Label,
  permissions: string[],
  setPdfOf: (row: RequisitionRow) => void,
): Column<RequisitionRow>[] {
  return [
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
            onClick={cellClick(() => setPdfOf(r))}
          >
            <Truncate text={names[0]} />
          </Link>
        ) : (
          <Truncate text={names.join(', ')} />
        );
      },
    },
    dateColumn('createdOn', t('orders.col.created')),
    dateColumn('updatedOn', t('orders.col.updated')),
  ];
}
