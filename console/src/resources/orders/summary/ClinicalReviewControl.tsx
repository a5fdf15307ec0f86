import { useState } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { useDataProvider, usePermissions } from 'react-admin';
import { CLINICAL_REVIEW_STATUSES, type ClinicalReviewStatus } from '@onco/domain';
import { ConfirmDialog, useToast } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { useEnumLabel, useOrdersT } from '../list/useOrdersT';
import { errorText } from './api';
import type { Requisition } from './requisition';

/**
 * The order's clinical review status (spec 1 section 4): a choice for users with CAN_REVIEW_DIAGNOSIS on a
 * submitted order, text for everyone else. DISQUALIFIED asks first (it removes the tests' due dates). The server
 * refuses the change without the permission; each change is a requisition-changed event and a timeline entry.
 */
export function ClinicalReviewControl({ r, onChanged }: { r: Requisition; onChanged: () => void }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { permissions = [] } = usePermissions<string[]>();
  const current = (r.clinicalReviewStatus ?? '') as ClinicalReviewStatus | '';
  const [asking, setAsking] = useState<ClinicalReviewStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const editable = permissions.includes('CAN_REVIEW_DIAGNOSIS') && r.status === 'SUBMITTED' && !r.deleted;
  if (!editable) return <span data-testid="clinical-review">{current ? label(current) : '—'}</span>;

  const change = async (status: ClinicalReviewStatus) => {
    setBusy(true);
    try {
      await dataProvider.call({
        path: `testOrderForms/${encodeURIComponent(r.id)}/clinicalReview`,
        method: 'PUT',
        body: { status },
      });
      toast('success', t('orders.summary.reviewUpdated'));
      onChanged();
    } catch (e) {
      toast('error', errorText(e, t('orders.summary.reviewFailed')));
    } finally {
      setBusy(false);
      setAsking(null);
    }
  };

  return (
    <>
      <TextField
        select
        size="small"
        variant="standard"
        fullWidth
        value={current}
        disabled={busy}
        onChange={(e) => {
          const next = e.target.value as ClinicalReviewStatus;
          if (next === 'DISQUALIFIED') setAsking(next);
          else void change(next);
        }}
        slotProps={{ htmlInput: { 'data-testid': 'clinical-review-select' } }}
      >
        {CLINICAL_REVIEW_STATUSES.map((s) => (
          <MenuItem key={s} value={s} data-value={s}>
            {label(s)}
          </MenuItem>
        ))}
      </TextField>
      <ConfirmDialog
        open={asking !== null}
        kind="warning"
        message={t('orders.summary.confirmDisqualify')}
        onConfirm={() => change('DISQUALIFIED')}
        onClose={() => setAsking(null)}
        loading={busy}
      />
    </>
  );
}
