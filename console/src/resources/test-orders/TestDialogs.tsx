import { useState } from 'react';
import { Checkbox, FormControlLabel, MenuItem, TextField, Typography } from '@mui/material';
import { dueDateError, testStatusOptions, TEST_RULE_MESSAGES, type TestStatus } from '@onco/domain';
import { FormDialog, useSave, type FormDialogProps } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { dayToUs, usDateToDay } from './logic';
import { useTestMethods } from './useTestMethods';
import { useTestsT } from './useTestsT';

const errorText = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

type TestDialogProps = Omit<FormDialogProps, 'title' | 'maxWidth' | 'cancelLabel' | 'busy' | 'onSubmit'> & {
  /** the title (tests.dialog.{action}Title) and the toasts (tests.toast.{action}Updated / {action}Failed) */
  action: 'status' | 'due' | 'lims';
  /** the change the primary button makes */
  run: () => Promise<unknown>;
  onDone: () => void;
};

/** The tests' small dialogs: extra small, the tests' Cancel text, the change made with its toasts. */
function TestDialog({ action, run, onDone, ...props }: TestDialogProps) {
  const t = useTestsT();
  const { busy, save } = useSave();
  const submit = () =>
    save(run, {
      success: t(`tests.toast.${action}Updated`),
      failure: (e) => errorText(e, t(`tests.toast.${action}Failed`)),
      onDone,
    });
  return (
    <FormDialog
      maxWidth="xs"
      title={t(`tests.dialog.${action}Title`)}
      cancelLabel={t('tests.dialog.cancel')}
      busy={busy}
      onSubmit={submit}
      {...props}
    />
  );
}

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
  const testApi = useTestMethods();
  const [status, setStatus] = useState<TestStatus | ''>('');
  const options = testStatusOptions(tests[0]?.status);
  return (
    <TestDialog
      action="status"
      run={() => testApi.updateTestsStatus({ uuids: tests.map((x) => x.id), status: status as TestStatus })}
      onDone={() => {
        setStatus('');
        onDone();
      }}
      open={open}
      onClose={onClose}
      submitLabel={t('tests.dialog.update')}
      submitDisabled={!status}
      submitTestId="status-update"
    >
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
    </TestDialog>
  );
}

/** A dialog that changes one value of one test. */
interface OneTestDialogProps {
  open: boolean;
  testId: string;
  /** the value now */
  current: string | null;
  onClose: () => void;
  onDone: () => void;
}

/** Update Due Date: MM/DD/YYYY at most 30 days ahead, or "Set Due Date to None". */
export function DueDateDialog({ open, testId, current, onClose, onDone }: OneTestDialogProps) {
  const t = useTestsT();
  const testApi = useTestMethods();
  const [text, setText] = useState(dayToUs(current));
  const [none, setNone] = useState(false);
  const day = usDateToDay(text);
  const today = new Date().toISOString().slice(0, 10);
  const error = none
    ? null
    : text && !day
      ? TEST_RULE_MESSAGES.dueDateInvalid
      : day
        ? dueDateError(day, today)
        : null;
  const canSave = none || (day !== null && !error);
  return (
    <TestDialog
      action="due"
      run={() => testApi.updateTestDueDate({ uuid: testId, dueOn: none ? null : day })}
      onDone={onDone}
      open={open}
      onClose={onClose}
      submitLabel={t('tests.dialog.update')}
      submitDisabled={!canSave}
      submitTestId="due-update"
    >
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
    </TestDialog>
  );
}

/** Add/Edit LIMS Project #: must be non-empty. */
export function LimsDialog({ open, testId, current, onClose, onDone }: OneTestDialogProps) {
  const t = useTestsT();
  const testApi = useTestMethods();
  const [value, setValue] = useState(current ?? '');
  return (
    <TestDialog
      action="lims"
      run={() => testApi.updateLimsProjectId({ uuid: testId, limsProjectId: value.trim() })}
      onDone={onDone}
      open={open}
      onClose={onClose}
      submitLabel={t('tests.dialog.save')}
      submitDisabled={!value.trim()}
      submitTestId="lims-save"
    >
      <TextField
        fullWidth
        size="small"
        sx={{ mt: 1 }}
        label={t('tests.dialog.limsLabel')}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        inputProps={{ 'data-testid': 'lims-input', maxLength: 200 }}
      />
    </TestDialog>
  );
}
