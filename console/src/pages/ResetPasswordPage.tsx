import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { dataProvider } from '../providers/dataProvider';
import { passwordAcceptable } from '../components/PasswordChecklist';
import { NewPasswordFields } from '../components/PasswordField';
import { PublicFrame } from './PublicFrame';

/** The page the e-mailed password link opens (/reset-password?token=...): a new password with the same rules. */
export function ResetPasswordPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(
    token.length < 10 ? translate('app.reset.missingToken') : null,
  );
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const canSubmit = token.length >= 10 && passwordAcceptable(password, confirm) && !busy;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    try {
      await dataProvider.resetPassword({ token, newPassword: password });
      setDone(true);
    } catch (err: any) {
      setError(err?.body?.message || translate('app.password.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame>
      {done ? (
        <Box data-testid="reset-done" sx={{ textAlign: 'center' }}>
          <CheckCircleOutlineIcon sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} />
          <Typography sx={{ fontSize: 17 }}>{translate('app.reset.done')}</Typography>
          <Button sx={{ mt: 3 }} variant="contained" onClick={() => navigate('/login')}>
            {translate('app.reset.back')}
          </Button>
        </Box>
      ) : (
        <Box component="form" onSubmit={submit} noValidate data-testid="reset-form">
          <Typography variant="h2" sx={{ mb: 0.5 }}>
            {translate('app.reset.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.reset.text')}
          </Typography>
          <Stack spacing={2}>
            {error && (
              <Alert severity="error" data-testid="reset-error">
                {error}
              </Alert>
            )}
            <NewPasswordFields
              password={password}
              confirm={confirm}
              onPassword={setPassword}
              onConfirm={setConfirm}
              size="medium"
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={!canSubmit}
              data-testid="reset-submit"
            >
              {busy ? <CircularProgress size={22} color="inherit" /> : translate('app.reset.submit')}
            </Button>
            <Button onClick={() => navigate('/login')}>{translate('app.reset.back')}</Button>
          </Stack>
        </Box>
      )}
    </PublicFrame>
  );
}
