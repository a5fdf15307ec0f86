import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { renewSession } from '../providers/authProvider';
import { readSession } from '../providers/session';
import { passwordAcceptable } from '../components/PasswordChecklist';
import { NewPasswordFields, PasswordField } from '../components/PasswordField';

/**
 * Change Password (profile menu): old, new and confirmation with the live checklist; submit only when every rule
 * holds; the spec's success and failure messages (spec 3 sections 2.7 and 8).
 */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [oldPassword, setOld] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setOld('');
    setNew('');
    setConfirm('');
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const canSubmit = oldPassword.length > 0 && passwordAcceptable(newPassword, confirm) && !busy;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const session = readSession();
    if (!canSubmit || !session) return;
    setBusy(true);
    setError(null);
    try {
      await dataProvider.changePassword({ userId: session.id, oldPassword, newPassword });
      // the change ends every session of the user: carry on in this one with the new password
      await renewSession(session.loginId, newPassword).catch(() => undefined);
      notify('app.password.ok', { type: 'success' });
      close();
    } catch {
      setError(translate('app.password.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate data-testid="change-password-form">
        <DialogTitle>{translate('app.password.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error && (
              <Alert severity="error" data-testid="change-password-error">
                {error}
              </Alert>
            )}
            <PasswordField
              name="oldPassword"
              label={translate('app.password.old')}
              value={oldPassword}
              onValueChange={setOld}
              autoFocus
            />
            <NewPasswordFields
              password={newPassword}
              confirm={confirm}
              onPassword={setNew}
              onConfirm={setConfirm}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close}>{translate('app.password.cancel')}</Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!canSubmit}
            data-testid="change-password-submit"
          >
            {translate('app.password.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
