import { useState } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { usePermissions } from 'react-admin';
import { BILLING_REVIEW_STATUSES, type BillingReviewStatus } from '@onco/domain';
import { useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingT } from './BillingDialogs';
import { useBillingMethods } from './useBillingMethods';

/**
 * The billing review status of a submitted order, editable with CAN_EDIT_BILLING (spec 2 section 6); read-only
 * text otherwise. A change publishes requisition-changed (billing-review-changed): the billing case follows.
 */
export function BillingReviewControl(props: {
  requisitionId: string;
  status: BillingReviewStatus | null;
  submitted: boolean;
  onChanged: () => void;
}) {
  const { requisitionId, submitted, onChanged } = props;
  const t = useBillingT();
  const label = useEnumLabel();
  const toast = useToast();
  const billing = useBillingMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const [status, setStatus] = useState<BillingReviewStatus | ''>(props.status ?? '');
  const [busy, setBusy] = useState(false);
  const editable = submitted && permissions.includes('CAN_EDIT_BILLING');
  return (
    <TextField
      select
      size="small"
      sx={{ minWidth: 260, mb: 2 }}
      label={t('billing.facet.reviewStatus')}
      value={status}
      disabled={!editable || busy}
      onChange={async (e) => {
        const next = (e.target.value || null) as BillingReviewStatus | null;
        setBusy(true);
        try {
          await billing.setBillingReview({ requisitionId, status: next });
          setStatus(next ?? '');
          toast('success', t('billing.reviewOk'));
          onChanged();
        } catch (err) {
          toast('error', (err as Error)?.message || t('billing.reviewFailed'));
        } finally {
          setBusy(false);
        }
      }}
      slotProps={{ htmlInput: { 'data-testid': 'billing-review-select' } }}
    >
      {BILLING_REVIEW_STATUSES.map((s) => (
        <MenuItem key={s} value={s} data-value={s}>
          {label(s)}
        </MenuItem>
      ))}
    </TextField>
  );
}
