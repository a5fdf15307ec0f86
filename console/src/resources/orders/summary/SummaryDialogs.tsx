import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ConfirmDialog, useToast } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { diagnosisText } from '../list/logic';
import { useOrdersT } from '../list/useOrdersT';
import { MergeTrfDialog } from '../merge/MergeTrfDialog';
import { errorText } from './api';
import { editBody, type EditValues } from './EditPanel';
import type { Requisition } from './requisition';
import type { SummaryConfirm } from './SummaryActions';
import { SubsequentOrderDialog } from './SubsequentOrderDialog';

/** Copy, Save (the edit) and Delete, each behind its confirmation; a failure is a toast. */
export function SummaryConfirmDialogs(props: {
  r: Requisition;
  confirm: SummaryConfirm | null;
  setConfirm: (kind: SummaryConfirm | null) => void;
  editing: EditValues | null;
  setEditing: (values: EditValues | null) => void;
  refetch: () => Promise<unknown>;
}) {
  const { r, confirm, setConfirm, editing } = props;
  const t = useOrdersT();
  const navigate = useNavigate();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const p = r.patient ?? {};

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
      await props.refetch();
      props.setEditing(null);
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

  return (
    <>
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
    </>
  );
}

/** Merge TRF with this requisition as the current one; a merge opens the primary. */
export function SummaryMergeDialog(props: {
  r: Requisition;
  patientId: string;
  onClose: () => void;
  refetch: () => Promise<unknown>;
}) {
  const { r } = props;
  const navigate = useNavigate();
  return (
    <MergeTrfDialog
      open
      current={{
        id: r.id,
        testRequisitionId: r.testRequisitionId ?? null,
        patientId: props.patientId,
        accountId: r.account?.id ?? null,
      }}
      onClose={props.onClose}
      onMerged={(primaryId) => {
        props.onClose();
        navigate(`/order/${encodeURIComponent(primaryId)}`);
        void props.refetch();
      }}
    />
  );
}

/** Subsequent Order for this requisition; the new one opens in the wizard. */
export function SummarySubsequentDialog(props: { r: Requisition; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <SubsequentOrderDialog
      open
      requisitionId={props.r.id}
      patientNumber={props.r.patient?.userId ?? ''}
      onClose={props.onClose}
      onCreated={(newId) => {
        props.onClose();
        navigate(`/order/${encodeURIComponent(newId)}`, { state: { from: 'orders' } });
      }}
    />
  );
}
