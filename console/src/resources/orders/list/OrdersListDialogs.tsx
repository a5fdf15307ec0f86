import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, PdfViewerDialog, useToast, type ListContext } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { rememberActiveMenu } from '../../../layout/menu';
import { loadTrfPdf } from '../summary/api';
import { SubsequentOrderDialog } from '../summary/SubsequentOrderDialog';
import { patientName, type RequisitionRow } from './logic';
import { useOrdersT } from './useOrdersT';

type Row = RequisitionRow | null;

/** Which row's TRF, Subsequent Order or Delete is open. */
export function useOrderDialogs() {
  const [toDelete, setToDelete] = useState<Row>(null);
  const [pdfOf, setPdfOf] = useState<Row>(null);
  const [subsequentOf, setSubsequentOf] = useState<Row>(null);
  return { toDelete, setToDelete, pdfOf, setPdfOf, subsequentOf, setSubsequentOf };
}

/** A row's dialogs: its TRF's PDF, Subsequent Order, and Delete (confirmed; then the list refreshes). */
export function OrdersListDialogs({
  ctx,
  dialogs,
}: {
  ctx: ListContext<RequisitionRow>;
  dialogs: ReturnType<typeof useOrderDialogs>;
}) {
  const { pdfOf, setPdfOf, subsequentOf, setSubsequentOf, toDelete, setToDelete } = dialogs;
  const t = useOrdersT();
  const navigate = useNavigate();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  return (
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
        message={
          toDelete?.status === 'DRAFT'
            ? t('orders.confirmDeleteDraftMessage', { patient: patientName(toDelete.patient ?? {}) || '—' })
            : t('orders.confirmDeleteMessage', { trf: toDelete?.testRequisitionId ?? '' })
        }
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
  );
}
