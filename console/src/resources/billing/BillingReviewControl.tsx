import { useState } from 'react';
import { Alert, Box, MenuItem, TextField } from '@mui/material';
import { usePermissions } from 'react-admin';
import {
  BILLING_FIELD_LABELS,
  BILLING_REVIEW_STATUSES,
  type BillingReviewBlocker,
  type BillingReviewStatus,
} from '@onco/domain';
import { useToast } from '../../components';
import { useEnumLabel, useOrdersT } from '../orders/list/useOrdersT';
import { useBillingT } from './BillingDialogs';
import { useBillingMethods } from './useBillingMethods';

/**
 * The billing review status of a submitted order, editable with CAN_EDIT_BILLING (spec 2 section 6); read-only
 * text otherwise. A change publishes requisition-changed (billing-review-changed): the billing case follows.
 * Review Complete is disabled, with the reasons above it, while the Medicare data or the primary billing is
 * incomplete (spec 1 section 5; the server refuses it too).
 */
export function BillingReviewControl(props: {
  requisitionId: string;
  status: BillingReviewStatus | null;
  submitted: boolean;
  onChanged: () => void;
  /** why Review Complete is not available yet (billingReviewBlockers): the choice is disabled and they show */
  blockers: readonly BillingReviewBlocker[];
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
  const fieldLabels = useOrdersT();
  const blockerText = (b: BillingReviewBlocker) =>
    b.code === 'primary-missing'
      ? t('billing.blocker.primary-missing', {
          fields: b.fields
            .map((f) => fieldLabels(`orders.summary.field.${f}`, { _: BILLING_FIELD_LABELS[f] ?? f }))
            .join(', '),
        })
      : t(`billing.blocker.${b.code}`);
  return (
    <>
      {props.blockers.length && submitted ? (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="billing-review-blockers">
          {t('billing.reviewBlocked')}
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {props.blockers.map((b) => (
              <li key={b.code}>{blockerText(b)}</li>
            ))}
          </Box>
        </Alert>
      ) : null}
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
          <MenuItem
            key={s}
            value={s}
            data-value={s}
            disabled={s === 'REVIEW_COMPLETE' && props.blockers.length > 0}
          >
            {label(s)}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
