import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import MarkEmailReadOutlinedIcon from '@mui/icons-material/MarkEmailReadOutlined';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { isCompanyEmail, looksLikeEmail } from '@onco/domain';
import { CLIENT_SERVICES, COMPANY_EMAIL_DOMAIN } from '../buildInfo';
import { dataProvider } from '../providers/dataProvider';
import { PublicFrame } from './PublicFrame';

/**
 * Forgot password (spec 3 sections 2.4 and 5): Reset only for an e-mail-looking address; the company's own
 * addresses are told to contact IT and nothing is sent; then the success view.
 */
export function ForgotPasswordPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const address = email.trim();

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!looksLikeEmail(address) || busy) return;
    setError(null);
    if (isCompanyEmail(address, COMPANY_EMAIL_DOMAIN)) {
      setError(translate('app.forgot.contactIt'));
      return;
    }
    setBusy(true);
    try {
      await dataProvider.forgotPassword({ email: address });
      setSent(true);
    } catch (err: any) {
      setError(err?.body?.message || translate('app.forgot.failed'));
    } finally {
      setBusy(false);
    }
  };

  const help = (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
      {translate('app.forgot.help', { phone: CLIENT_SERVICES.phone, email: CLIENT_SERVICES.email })}
    </Typography>
  );

  return (
    <PublicFrame>
      {sent ? (
        <Box data-testid="forgot-sent" sx={{ textAlign: 'center' }}>
          <MarkEmailReadOutlinedIcon sx={{ fontSize: 56, color: 'primary.main', mb: 1 }} />
          <Typography sx={{ fontSize: 17 }}>{translate('app.forgot.sent')}</Typography>
          {help}
          <Button sx={{ mt: 3 }} variant="outlined" onClick={() => navigate('/login')}>
            {translate('app.forgot.back')}
          </Button>
        </Box>
      ) : (
        <Box component="form" onSubmit={submit} noValidate data-testid="forgot-form">
          <Typography variant="h2" sx={{ mb: 0.5 }}>
            {translate('app.forgot.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
            {translate('app.forgot.text')}
          </Typography>
          <Stack spacing={2.25}>
            {error && (
              <Alert severity="error" data-testid="forgot-error">
                {error}
              </Alert>
            )}
            <TextField
              name="email"
              type="email"
              label={translate('app.forgot.email')}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoComplete="email"
              autoFocus
              size="medium"
            />
            <Box sx={{ display: 'flex', gap: 1.5 }}>
              <Button variant="outlined" fullWidth size="large" onClick={() => navigate('/login')}>
                {translate('app.forgot.cancel')}
              </Button>
              <Button
                type="submit"
                variant="contained"
                fullWidth
                size="large"
                disabled={!looksLikeEmail(address) || busy}
                data-testid="forgot-submit"
              >
                {busy ? <CircularProgress size={22} color="inherit" /> : translate('app.forgot.reset')}
              </Button>
            </Box>
          </Stack>
        </Box>
      )}
    </PublicFrame>
  );
}
