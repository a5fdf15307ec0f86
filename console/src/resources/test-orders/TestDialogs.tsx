import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { dueDateError, testStatusOptions, TEST_RULE_MESSAGES, type TestStatus } from '@onco/domain';
import { useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { dayToUs, usDateToDay } from './logic';
import { useTestMethods } from './useTestMethods';
import { useTestsT } from './useTestsT';

const errorText = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

/**
 * Change Test Status for one or many tests: every status but TEST_SELECTED, the first selected test's own
 * working status disabled (the rule of @onco/domain, which the server applies too).
 */
export function UpdateStatusDialog(props: {
  open: boolean;
  tests: Array<{ id: string; status: TestStatus }>;
  onClose: () => void;
  onDone: () => void;
}) {
  const { open, tests, onClose, onDone } = props;
  const t = useTestsT();
  const label = useEnumLabel();
  const toast = useToast();
  const testApi = useTestMethods();
  const [status, setStatus] = useState<TestStatus | ''>('');
  const [saving, setSaving] = useState(false);
  const options = testStatusOptions(tests[0]?.status);
  const submit = async () => {
    if (!status) return;
    setSaving(true);
    try {
      await testApi.updateTestsStatus({ uuids: tests.map((x) => x.id), status });
      toast('success', t('tests.toast.statusUpdated'));
      setStatus('');
      onDone();
    } catch (e) {
      toast('error', errorText(e, t('tests.toast.statusFailed')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tests.dialog.statusTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('tests.dialog.statusFor', { n: tests.length })}
        </Typography>
        <TextField
          select
          fullWidth
          size="small"
          label={t('tests.dialog.statusLabel')}
          value={status}
          onChange={(e) => setStatus(e.target.value as TestStatus)}
          slotProps={{
            select: { MenuProps: { slotProps: { paper: { 'data-testid': 'status-options' } as object } } },
          }}
          inputProps={{ 'data-testid': 'status-select' }}
        >
          {options.map((o) => (
            <MenuItem key={o.status} value={o.status} disabled={o.disabled} data-value={o.status}>
              {label(o.status)}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('tests.dialog.cancel')}</Button>
        <Button variant="contained" disabled={!status || saving} onClick={submit} data-testid="status-update">
          {t('tests.dialog.update')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Update Due Date: MM/DD/YYYY at most 30 days ahead, or "Set Due Date to None". */
export function DueDateDialog(props: {
  open: boolean;
  testId: string;
  current: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { open, testId, current, onClose, onDone } = props;
  const t = useTestsT();
  const toast = useToast();
  const testApi = useTestMethods();
  const [text, setText] = useState(dayToUs(current));
  const [none, setNone] = useState(false);
  const [saving, setSaving] = useState(false);
  const day = usDateToDay(text);
  const today = new Date().toISOString().slice(0, 10);
  const error = none
    ? null
    : text && !day
      ? TEST_RULE_MESSAGES.dueDateInvalid
      : day
        ? dueDateError(day, today)
        : null;
  const canSave = !saving && (none || (day !== null && !error));
  const submit = async () => {
    setSaving(true);
    try {
      await testApi.updateTestDueDate({ uuid: testId, dueOn: none ? null : day });
      toast('success', t('tests.toast.dueUpdated'));
      onDone();
    } catch (e) {
      toast('error', errorText(e, t('tests.toast.dueFailed')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tests.dialog.dueTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          size="small"
          sx={{ mt: 1 }}
          label={t('tests.dialog.dueLabel')}
          placeholder="MM/DD/YYYY"
          value={text}
          disabled={none}
          onChange={(e) => setText(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? ' '}
          inputProps={{ 'data-testid': 'due-input' }}
        />
        <FormControlLabel
          control={<Checkbox checked={none} onChange={(e) => setNone(e.target.checked)} />}
          label={t('tests.dialog.dueNone')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('tests.dialog.cancel')}</Button>
        <Button variant="contained" disabled={!canSave} onClick={submit} data-testid="due-update">
          {t('tests.dialog.update')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Add/Edit LIMS Project #: must be non-empty. */
export function LimsDialog(props: {
  open: boolean;
  testId: string;
  current: string | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { open, testId, current, onClose, onDone } = props;
  const t = useTestsT();
  const toast = useToast();
  const testApi = useTestMethods();
  const [value, setValue] = useState(current ?? '');
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setSaving(true);
    try {
      await testApi.updateLimsProjectId({ uuid: testId, limsProjectId: value.trim() });
      toast('success', t('tests.toast.limsUpdated'));
      onDone();
    } catch (e) {
      toast('error', errorText(e, t('tests.toast.limsFailed')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('tests.dialog.limsTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          size="small"
          sx={{ mt: 1 }}
          label={t('tests.dialog.limsLabel')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          inputProps={{ 'data-testid': 'lims-input', maxLength: 200 }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('tests.dialog.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!value.trim() || saving}
          onClick={submit}
          data-testid="lims-save"
        >
          {t('tests.dialog.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
