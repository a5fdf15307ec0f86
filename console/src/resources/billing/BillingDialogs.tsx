import { useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  List,
  ListItem,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import {
  billingStatusOptions,
  statusChangeNeedsReason,
  STATUS_REASON_MAX,
  type BillingCaseStatus,
} from '@onco/domain';
import { FormDialog, useDebounced, useSave, useToast, type FormDialogProps } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingMethods } from './useBillingMethods';
import type { BillingCaseRow, BillingSpecialist, BulkSubmitReply } from './api';
import { errText, useBillingT } from './billingText';

export { useBillingT } from './billingText';
export { ErrorDetailsDialog, HistoryDialog } from './HistoryDialog';

/** Billing's small dialogs: extra small, with billing's Cancel text. */
function BillingDialog(props: Omit<FormDialogProps, 'cancelLabel'>) {
  const t = useBillingT();
  return <FormDialog maxWidth="xs" cancelLabel={t('billing.cancel')} {...props} />;
}

/** Update Billing Code / Update Timepoint: one required text. */
export function TextActionDialog(props: {
  kind: 'billingCode' | 'timePoint';
  row: BillingCaseRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { kind, row, onClose, onDone } = props;
  const t = useBillingT();
  const billing = useBillingMethods();
  const [value, setValue] = useState((kind === 'billingCode' ? row.billingCode : row.timePoint) ?? '');
  const [touched, setTouched] = useState(false);
  const { busy, save } = useSave();
  const required = kind === 'billingCode' ? t('billing.billingCodeRequired') : t('billing.timePointRequired');
  const submit = () =>
    save(
      () =>
        kind === 'billingCode'
          ? billing.updateBillingCode({ id: row.id, code: value.trim() })
          : billing.updateTimePoint({ id: row.id, timePoint: value.trim() }),
      {
        success: kind === 'billingCode' ? t('billing.billingCodeOk') : t('billing.timePointOk'),
        failure: (e) =>
          errText(e, kind === 'billingCode' ? t('billing.billingCodeFailed') : t('billing.timePointFailed')),
        onDone,
      },
    );
  return (
    <BillingDialog
      title={kind === 'billingCode' ? t('billing.action.billingCode') : t('billing.action.timePoint')}
      onClose={onClose}
      busy={busy}
      submitLabel={t('billing.update')}
      onSubmit={submit}
      submitDisabled={!value.trim()}
      submitTestId={`billing-${kind}-save`}
    >
      <TextField
        fullWidth
        size="small"
        sx={{ mt: 1 }}
        label={kind === 'billingCode' ? t('billing.billingCode') : t('billing.timePoint')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => setTouched(true)}
        error={touched && !value.trim()}
        helperText={touched && !value.trim() ? required : ' '}
        slotProps={{ htmlInput: { 'data-testid': `billing-${kind}-input`, maxLength: 100 } }}
      />
    </BillingDialog>
  );
}

/** Assign Billing User: specialist lookup after 2 characters, debounced 400 ms. */
export function AssignDialog(props: { rows: BillingCaseRow[]; onClose: () => void; onDone: () => void }) {
  const { rows, onClose, onDone } = props;
  const t = useBillingT();
  const billing = useBillingMethods();
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<BillingSpecialist | null>(null);
  const { busy, save } = useSave();
  const q = useDebounced(text.trim(), 400);
  const found = useQuery({
    queryKey: ['billingSpecialists', q],
    enabled: q.length >= 2,
    queryFn: () => billing.searchBillingSpecialists({ q }).then((r) => r.data),
  });
  const submit = () =>
    chosen &&
    save(() => billing.assignBillingUser({ specialistId: chosen.id, ids: rows.map((r) => r.id) }), {
      success: t('billing.assignOk'),
      failure: (e) => errText(e, t('billing.assignFailed')),
      onDone,
    });
  return (
    <BillingDialog
      title={t('billing.action.assign')}
      onClose={onClose}
      busy={busy}
      submitLabel={t('billing.assign')}
      onSubmit={submit}
      submitDisabled={!chosen}
      submitTestId="billing-assign-save"
    >
      <Autocomplete
        sx={{ mt: 1 }}
        options={q.length >= 2 ? (found.data ?? []) : []}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(x) => x}
        loading={found.isFetching}
        loadingText={t('billing.loading')}
        noOptionsText={text.trim().length < 2 ? t('billing.typeTwo') : t('billing.noMatches')}
        value={chosen}
        onChange={(_, v) => setChosen(v)}
        inputValue={text}
        onInputChange={(_, v) => setText(v)}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label={t('billing.billingUser')}
            helperText={chosen ? ' ' : t('billing.billingUserRequired')}
            inputProps={{ ...params.inputProps, 'data-testid': 'billing-assign-input' }}
          />
        )}
      />
    </BillingDialog>
  );
}

/**
 * Update Billing Status: the statuses every selected case may take (billingStatusOptions, services/domain):
 * FIXED_IN_XIFIN, and with CAN_CLOSE_BILLING_CASES BILLING_COMPLETE, RETIRED_FROM_BILLING or ON_HOLD_EXTERNAL,
 * which need a reason.
 */
export function StatusDialog(props: { rows: BillingCaseRow[]; onClose: () => void; onDone: () => void }) {
  const { rows, onClose, onDone } = props;
  const t = useBillingT();
  const label = useEnumLabel();
  const billing = useBillingMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const options: string[] = billingStatusOptions(
    rows.map((r) => r.caseStatus),
    permissions,
  );
  const [status, setStatus] = useState(options[0] ?? '');
  const [reason, setReason] = useState('');
  const needsReason = !!status && statusChangeNeedsReason(status as BillingCaseStatus);
  const { busy, save } = useSave();
  const submit = () =>
    save(() => billing.updateBillingStatus({ status, ids: rows.map((r) => r.id), reason: reason.trim() }), {
      success: t('billing.statusOk'),
      failure: (e) => errText(e, t('billing.statusFailed')),
      onDone,
    });
  return (
    <BillingDialog
      title={t('billing.action.status')}
      onClose={onClose}
      busy={busy}
      submitLabel={t('billing.update')}
      onSubmit={submit}
      submitDisabled={!status || options.length === 0 || (needsReason && !reason.trim())}
      submitTestId="billing-status-save"
    >
      <TextField
        select
        fullWidth
        size="small"
        sx={{ mt: 1 }}
        label={t('billing.status')}
        value={status}
        onChange={(e) => setStatus(e.target.value)}
        helperText={status ? ' ' : t('billing.statusRequired')}
      >
        {options.map((o) => (
          <MenuItem key={o} value={o}>
            {label(o)}
          </MenuItem>
        ))}
      </TextField>
      {needsReason && (
        <TextField
          fullWidth
          size="small"
          multiline
          minRows={2}
          sx={{ mt: 2 }}
          name="status-reason"
          label={t('billing.reason')}
          required
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          helperText={reason.trim() ? ' ' : t('billing.reasonRequired')}
          slotProps={{ htmlInput: { maxLength: STATUS_REASON_MAX } }}
        />
      )}
    </BillingDialog>
  );
}

/**
 * Submit selected (the needs-attention view's bulk resubmit): confirms, sends the ids in one call, then lists
 * per case whether it went and, if not, why (the server's pre-submit checks or the section 4.3 reason).
 */
export function BulkSubmitDialog(props: { rows: BillingCaseRow[]; onClose: () => void; onDone: () => void }) {
  const { rows, onClose, onDone } = props;
  const t = useBillingT();
  const toast = useToast();
  const billing = useBillingMethods();
  const [busy, setBusy] = useState(false);
  const [reply, setReply] = useState<BulkSubmitReply | null>(null);
  const testOf = (id: string) => rows.find((r) => r.id === id)?.testId ?? id;
  const send = async () => {
    setBusy(true);
    try {
      const { data } = await billing.submitBillingCases({ ids: rows.map((r) => r.id) });
      setReply(data);
      toast(data.submitted ? 'success' : 'warning', data.message);
    } catch (e) {
      toast('error', errText(e, t('billing.bulkFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <BillingDialog
      title={t('billing.bulkTitle')}
      onClose={reply ? onDone : onClose}
      onCancel={onClose}
      maxWidth="sm"
      testId="billing-bulk-dialog"
      busy={busy}
      actions={
        reply ? (
          <Button variant="contained" onClick={onDone}>
            {t('billing.close')}
          </Button>
        ) : undefined
      }
      submitLabel={t('billing.submit')}
      onSubmit={send}
      submitTestId="billing-bulk-confirm"
    >
      {reply ? (
        <List dense data-testid="billing-bulk-results">
          {reply.results.map((r) => (
            <ListItem key={r.id} sx={{ display: 'block', px: 0 }} data-testid={`billing-bulk-result-${r.id}`}>
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                <Chip
                  size="small"
                  color={r.submitted ? 'success' : 'error'}
                  label={r.submitted ? t('billing.bulkOk') : t('billing.bulkRefused')}
                />
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {testOf(r.id)}
                </Typography>
              </Box>
              {r.submitted ? null : (
                <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
                  {r.problems?.length ? r.problems.map((p) => `• ${p.message}`).join('\n') : r.message}
                </Typography>
              )}
            </ListItem>
          ))}
        </List>
      ) : (
        <Typography variant="body2">{t('billing.bulkIntro', { count: rows.length })}</Typography>
      )}
    </BillingDialog>
  );
}
