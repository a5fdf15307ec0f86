import { Box, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { useTranslate } from 'react-admin';
import { PASSWORD_ALLOWED, checkPassword } from '@onco/domain';

export type ChecklistKey = 'length' | 'digit' | 'upper' | 'lower' | 'match';

/** The live rules of a new password (spec 3 sections 2.7 and 5): the shared domain rules plus the confirmation. */
export function passwordChecklist(
  password: string,
  confirm: string,
): Array<{ key: ChecklistKey; ok: boolean }> {
  const rules = checkPassword(password);
  const ok = (k: string) => rules.find((r) => r.key === k)?.ok ?? false;
  return [
    { key: 'length', ok: ok('length') },
    { key: 'digit', ok: ok('digit') },
    { key: 'upper', ok: ok('upper') },
    { key: 'lower', ok: ok('lower') },
    { key: 'match', ok: password.length > 0 && password === confirm },
  ];
}

export const passwordAcceptable = (password: string, confirm: string) =>
  passwordChecklist(password, confirm).every((r) => r.ok);

/** Password inputs refuse characters outside the allowed pattern (spec 3 section 5). */
export const allowedPassword = (next: string, previous: string) =>
  PASSWORD_ALLOWED.test(next) ? next : previous;

export function PasswordChecklist({ password, confirm }: { password: string; confirm: string }) {
  const translate = useTranslate();
  return (
    <Box
      data-testid="password-checklist"
      sx={{
        bgcolor: 'background.default',
        borderRadius: 1,
        px: 2,
        py: 1.25,
        border: 1,
        borderColor: 'divider',
      }}
    >
      <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
        {translate('app.password.rules.title')}
      </Typography>
      {passwordChecklist(password, confirm).map((r) => (
        <Box
          key={r.key}
          data-rule={r.key}
          data-ok={r.ok ? 'true' : 'false'}
          sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}
        >
          {r.ok ? (
            <CheckCircleIcon sx={{ fontSize: 18, color: 'success.main' }} />
          ) : (
            <RadioButtonUncheckedIcon sx={{ fontSize: 18, color: 'text.disabled' }} />
          )}
          <Typography variant="body2" color={r.ok ? 'text.primary' : 'text.secondary'}>
            {translate(`app.password.rules.${r.key}`)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
