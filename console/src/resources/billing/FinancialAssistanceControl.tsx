import { useState } from 'react';
import { MenuItem, TextField, Typography } from '@mui/material';
import { FINANCIAL_ASSISTANCE_OUTCOMES, type FinancialAssistanceOutcome } from '@onco/domain';
import { DateText, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingT } from './BillingDialogs';
import { useBillingMethods } from './useBillingMethods';

/**
 * The financial assistance row of an order of the financial assistance account (spec 1 section 5: its summary
 * row appears only for that account): the outcome billing staff recorded, with who and when; a choice of the
 * spec's outcomes for those who may record it (the server's `recordFinancialAssistance` action).
 */
export function FinancialAssistanceControl(props: {
  requisitionId: string;
  value: {
    outcome: string | null;
    decidedOn?: string | null;
    decidedBy?: { name?: string | null } | null;
  } | null;
  editable: boolean;
  onChanged: () => void;
}) {
  const { requisitionId, editable, onChanged } = props;
  const t = useBillingT();
  const label = useEnumLabel();
  const toast = useToast();
  const billing = useBillingMethods();
  const [outcome, setOutcome] = useState<string>(props.value?.outcome ?? '');
  const [busy, setBusy] = useState(false);
  return (
    <>
      <TextField
        select
        size="small"
        sx={{ minWidth: 320, mb: 0.5 }}
        label={t('billing.financialAssistance')}
        value={outcome}
        disabled={!editable || busy}
        onChange={async (e) => {
          const next = (e.target.value || null) as FinancialAssistanceOutcome | null;
          setBusy(true);
          try {
            await billing.setFinancialAssistance({ requisitionId, outcome: next });
            setOutcome(next ?? '');
            toast('success', t('billing.financialAssistanceOk'));
            onChanged();
          } catch (err) {
            toast('error', (err as Error)?.message || t('billing.financialAssistanceFailed'));
          } finally {
            setBusy(false);
          }
        }}
        slotProps={{ htmlInput: { 'data-testid': 'financial-assistance-select' } }}
      >
        <MenuItem value="">
          <em>{t('billing.financialAssistanceNone')}</em>
        </MenuItem>
        {FINANCIAL_ASSISTANCE_OUTCOMES.map((o) => (
          <MenuItem key={o} value={o} data-value={o}>
            {label(o)}
          </MenuItem>
        ))}
      </TextField>
      {props.value?.outcome ? (
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ mb: 2 }}
          data-testid="financial-assistance-decided"
        >
          {t('billing.financialAssistanceBy', { name: props.value.decidedBy?.name ?? '' })}{' '}
          <DateText value={props.value.decidedOn ?? null} withTime />
        </Typography>
      ) : (
        <div style={{ marginBottom: 16 }} />
      )}
    </>
  );
}
