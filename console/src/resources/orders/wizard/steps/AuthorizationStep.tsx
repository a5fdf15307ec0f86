import { Alert, Box, Button, Grid, Typography } from '@mui/material';
import { useState } from 'react';
import { formatDateTime } from '../../../../components';
import { PasswordField } from '../../../../components/PasswordField';
import { useWizardApi } from '../api';
import { useWizard } from '../context';
import { Section } from '../fields';
import { useWizardT } from '../useWizardT';

/** Spec 1 section 5: the consent must be scrolled to within about 10 px of the bottom. */
export const CONSENT_SCROLL_TOLERANCE_PX = 10;

export function scrolledToEnd(el: {
  scrollHeight: number;
  scrollTop: number;
  clientHeight: number;
}): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= CONSENT_SCROLL_TOLERANCE_PX;
}

export function AuthorizationStep({ onSigned }: { onSigned: (approvals: unknown[]) => void }) {
  const { form, ensureSaved } = useWizard();
  const api = useWizardApi();
  const t = useWizardT();
  const [unlocked, setUnlocked] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const approvals = form.approvals ?? [];

  const sign = async () => {
    setBusy(true);
    setError(null);
    try {
      const id = await ensureSaved();
      if (!id) throw new Error(t('wizard.messages.saveFailed'));
      const doc = await api.sign(id, password);
      setPassword('');
      onSigned(doc.approvals ?? []);
    } catch (e) {
      const status = (e as { status?: number }).status;
      setError(status === 400 ? t('wizard.messages.incorrectPassword') : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Section title="wizard.sections.consent">
        <Grid size={12}>
          <Box
            data-testid="consent-text"
            onScroll={(e) => scrolledToEnd(e.currentTarget) && setUnlocked(true)}
            ref={(el: HTMLDivElement | null) => {
              // a text short enough to show whole needs no scrolling
              if (el && !unlocked && scrolledToEnd(el)) setUnlocked(true);
            }}
            sx={{
              maxHeight: 160,
              overflowY: 'auto',
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 2,
              bgcolor: 'grey.50',
            }}
          >
            {t('wizard.consentText')
              .split(/(?<=[.。])\s*/)
              .filter((s) => s.trim())
              .map((s, i) => (
                <Typography key={i} variant="body2" paragraph>
                  {s}
                </Typography>
              ))}
          </Box>
          {!unlocked && (
            <Typography variant="caption" color="text.secondary">
              {t('wizard.messages.scrollToUnlock')}
            </Typography>
          )}
        </Grid>
      </Section>
      <Section title="wizard.sections.signature">
        <Grid size={12}>
          {approvals.length > 0 ? (
            approvals.map((a, i) => (
              <Alert key={i} severity="success" sx={{ mb: 1 }}>
                {t('wizard.fields.signedBy', {
                  name: a.approvedBy?.name ?? '',
                  date: formatDateTime(a.createdOn as string),
                })}
              </Alert>
            ))
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('wizard.fields.notSigned')}
            </Typography>
          )}
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <PasswordField
            id="signature-password"
            name="signature-password"
            fullWidth
            size="small"
            label={t('wizard.fields.password')}
            disabled={!unlocked || busy}
            value={password}
            onValueChange={(v) => {
              setPassword(v);
              setError(null);
            }}
            error={!!error}
            helperText={error ?? undefined}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && password) void sign();
            }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 3 }}>
          <Button variant="contained" disabled={!unlocked || !password || busy} onClick={() => void sign()}>
            {t('wizard.buttons.sign')}
          </Button>
        </Grid>
      </Section>
    </>
  );
}
