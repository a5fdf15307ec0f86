import { useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { billingStatusOptions } from '@onco/domain';
import { useDebounced, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingMethods } from './useBillingMethods';
import type { BillingCaseRow, BillingSpecialist, BulkSubmitReply } from './api';
import { errText, useBillingT } from './billingText';

export { useBillingT } from './billingText';
export { ErrorDetailsDialog, HistoryDialog } from './HistoryDialog';

/** Update Billing Code / Update Timepoint: one required text. */
export function TextActionDialog(props: {
  kind: 'billingCode' | 'timePoint';
  row: BillingCaseRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { kind, row, onClose, onDone } = props;
  const t = useBillingT();
  const toast = useToast();
  const billing = useBillingMethods();
  const [value, setValue] = useState((kind === 'billingCode' ? row.billingCode : row.timePoint) ?? '');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const required = kind === 'billingCode' ? t('billing.billingCodeRequired') : t('billing.timePointRequired');
  const save = async () => {
    setBusy(true);
    try {
      if (kind === 'billingCode') await billing.updateBillingCode({ id: row.id, code: value.trim() });
      else await billing.updateTimePoint({ id: row.id, timePoint: value.trim() });
      toast('success', kind === 'billingCode' ? t('billing.billingCodeOk') : t('billing.timePointOk'));
      onDone();
    } catch (e) {
      toast(
        'error',
        errText(e, kind === 'billingCode' ? t('billing.billingCodeFailed') : t('billing.timePointFailed')),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>
        {kind === 'billingCode' ? t('billing.action.billingCode') : t('billing.action.timePoint')}
      </DialogTitle>
      <DialogContent>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billing.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!value.trim() || busy}
          onClick={save}
          data-testid={`billing-${kind}-save`}
        >
          {t('billing.update')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Assign Billing User: specialist lookup after 2 characters, debounced 400 ms. */
export function AssignDialog(props: { rows: BillingCaseRow[]; onClose: () => void; onDone: () => void }) {
  const { rows, onClose, onDone } = props;
  const t = useBillingT();
  const toast = useToast();
  const billing = useBillingMethods();
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<BillingSpecialist | null>(null);
  const [busy, setBusy] = useState(false);
  const q = useDebounced(text.trim(), 400);
  const found = useQuery({
    queryKey: ['billingSpecialists', q],
    enabled: q.length >= 2,
    queryFn: () => billing.searchBillingSpecialists({ q }).then((r) => r.data),
  });
  const save = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      await billing.assignBillingUser({ specialistId: chosen.id, ids: rows.map((r) => r.id) });
      toast('success', t('billing.assignOk'));
      onDone();
    } catch (e) {
      toast('error', errText(e, t('billing.assignFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('billing.action.assign')}</DialogTitle>
      <DialogContent>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billing.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!chosen || busy}
          onClick={save}
          data-testid="billing-assign-save"
        >
          {t('billing.assign')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Update Billing Status: the only choice is FIXED_IN_XIFIN (from PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION). */
export function StatusDialog(props: { rows: BillingCaseRow[]; onClose: () => void; onDone: () => void }) {
  const { rows, onClose, onDone } = props;
  const t = useBillingT();
  const label = useEnumLabel();
  const toast = useToast();
  const billing = useBillingMethods();
  const options: string[] = billingStatusOptions(rows.map((r) => r.caseStatus));
  const [status, setStatus] = useState(options[0] ?? '');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await billing.updateBillingStatus({ status, ids: rows.map((r) => r.id) });
      toast('success', t('billing.statusOk'));
      onDone();
    } catch (e) {
      toast('error', errText(e, t('billing.statusFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('billing.action.status')}</DialogTitle>
      <DialogContent>
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billing.cancel')}</Button>
        <Button variant="contained" disabled={!status || options.length === 0 || busy} onClick={save}>
          {t('billing.update')}
        </Button>
      </DialogActions>
    </Dialog>
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
    <Dialog open onClose={reply ? onDone : onClose} maxWidth="sm" fullWidth data-testid="billing-bulk-dialog">
      <DialogTitle>{t('billing.bulkTitle')}</DialogTitle>
      <DialogContent>
        {reply ? (
          <List dense data-testid="billing-bulk-results">
            {reply.results.map((r) => (
              <ListItem
                key={r.id}
                sx={{ display: 'block', px: 0 }}
                data-testid={`billing-bulk-result-${r.id}`}
              >
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
      </DialogContent>
      <DialogActions>
        {reply ? (
          <Button variant="contained" onClick={onDone}>
            {t('billing.close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>{t('billing.cancel')}</Button>
            <Button variant="contained" disabled={busy} onClick={send} data-testid="billing-bulk-confirm">
              {t('billing.submit')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
