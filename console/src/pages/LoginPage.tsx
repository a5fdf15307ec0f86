import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  Link,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useLogin, useTranslate } from 'react-admin';
import { CLIENT_SERVICES } from '../buildInfo';
import { useMaintenance } from '../layout/MaintenanceContext';
import { LoginError } from '../providers/authProvider';
import { readSession } from '../providers/session';
import { STORAGE_KEYS } from '../providers/storage';
import { MaintenanceScreen } from './MaintenanceScreen';
import { PasswordField } from '../components/PasswordField';
import { PublicFrame } from './PublicFrame';

/**
 * Login (spec 3 sections 2.3, 4.5 and 5): Username, Password with show/hide, Save Username, Forgot Password,
 * Login enabled once both are filled; the maintenance screen replaces it during a window.
 */
export function LoginPage() {
  const { active, loaded } = useMaintenance();
  const navigate = useNavigate();
  useEffect(() => {
    if (readSession() && !active) navigate('/', { replace: true });
  }, [active, navigate]);
  if (!loaded) return null;
  if (active) return <MaintenanceScreen window={active} />;
  return (
    <PublicFrame>
      <LoginForm />
    </PublicFrame>
  );
}

function LoginForm() {
  const translate = useTranslate();
  const login = useLogin();
  const saved = localStorage.getItem(STORAGE_KEYS.savedUsername) ?? '';
  const [username, setUsername] = useState(saved);
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(saved !== '');
  const [error, setError] = useState<{ locked: boolean; retryAfter: number | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const canSubmit = username.trim() !== '' && password !== '' && !busy;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    const name = username.trim();
    try {
      await login({ username: name, password });
      if (remember) localStorage.setItem(STORAGE_KEYS.savedUsername, name);
      else localStorage.removeItem(STORAGE_KEYS.savedUsername);
    } catch (err) {
      setError({
        locked: err instanceof LoginError && err.locked,
        retryAfter: err instanceof LoginError ? err.retryAfterSeconds : null,
      });
      setPassword('');
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate data-testid="login-form">
      <Typography variant="h2" sx={{ mb: 0.5 }}>
        {translate('app.login.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {translate('app.login.subtitle')}
      </Typography>
      <Stack spacing={2.25}>
        {error && (
          <Alert severity="error" data-testid="login-error">
            {error.retryAfter
              ? translate('app.login.tooMany', { smart_count: error.retryAfter })
              : translate(error.locked ? 'app.login.locked' : 'app.login.failed')}
          </Alert>
        )}
        <TextField
          name="username"
          label={translate('app.login.username')}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          autoFocus={!saved}
          size="medium"
        />
        <PasswordField
          name="password"
          label={translate('app.login.password')}
          value={password}
          onValueChange={setPassword}
          autoFocus={!!saved}
          size="medium"
        />
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <FormControlLabel
            control={
              <Checkbox
                size="small"
                name="saveUsername"
                checked={remember}
                onChange={(e) => setRemember(e.target.checked)}
              />
            }
            label={<Typography variant="body2">{translate('app.login.saveUsername')}</Typography>}
          />
          <Link
            component={RouterLink}
            to="/forgot-password"
            variant="body2"
            underline="hover"
            data-testid="forgot-link"
          >
            {translate('app.login.forgot')}
          </Link>
        </Box>
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={!canSubmit}
          data-testid="login-submit"
          sx={{ py: 1.2 }}
        >
          {busy ? <CircularProgress size={22} color="inherit" /> : translate('app.login.submit')}
        </Button>
        <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', lineHeight: 1.6 }}>
          {translate('app.login.agreement')}{' '}
          <Link component={RouterLink} to="/tac" underline="hover">
            {translate('app.footer.terms')}
          </Link>{' '}
          {translate('app.login.and')}{' '}
          <Link href={CLIENT_SERVICES.privacyUrl} target="_blank" rel="noopener noreferrer" underline="hover">
            {translate('app.footer.privacy')}
          </Link>
          {translate('app.login.agreementEnd')}
        </Typography>
      </Stack>
    </Box>
  );
}
