import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import { useDataProvider } from 'react-admin';
import { ACCOUNT_ROLES, creatableRoles, isEmail, type Role } from '@onco/domain';
import { useToast } from '../../components/Toast';
import { useDebounced } from '../../components/useDebounced';
import { useT } from '../../components/useT';
import { serverError } from './useUserMethods';

interface AccountOption {
  id: string;
  name: string;
}

export interface AddUserDialogProps {
  open: boolean;
  /** the signed-in user's role: decides which roles may be added (creatableRoles) */
  creatorRole: Role;
  onClose: () => void;
  onAdded: () => void;
}

const DEFAULT_ROLE: Role = 'ROLE_PHYSICIAN';

/**
 * The add-user form: loginId, email, first and last name, role (only the roles the creator may add, default
 * ROLE_PHYSICIAN) and, for the roles that need one, the account. New users sign in through the identity
 * provider (OKTA) and get an activation e-mail.
 */
export function AddUserDialog({ open, creatorRole, onClose, onAdded }: AddUserDialogProps) {
  const t = useT();
  const toast = useToast();
  const dataProvider = useDataProvider();
  const roles = useMemo(() => creatableRoles(creatorRole), [creatorRole]);
  const initialRole = roles.includes(DEFAULT_ROLE) ? DEFAULT_ROLE : (roles[0] ?? DEFAULT_ROLE);
  const [form, setForm] = useState({ loginId: '', email: '', firstName: '', lastName: '' });
  const [role, setRole] = useState<Role>(initialRole);
  const [account, setAccount] = useState<AccountOption | null>(null);
  const [accountText, setAccountText] = useState('');
  const [accounts, setAccounts] = useState<AccountOption[]>([]);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message?: string; field?: string }>({});
  const needsAccount = ACCOUNT_ROLES.includes(role);
  const accountQuery = useDebounced(accountText, 100);

  useEffect(() => {
    if (!open) return;
    setForm({ loginId: '', email: '', firstName: '', lastName: '' });
    setRole(initialRole);
    setAccount(null);
    setTouched({});
    setError({});
  }, [open, initialRole]);

  useEffect(() => {
    if (!open || !needsAccount) return;
    let cancelled = false;
    const q = accountQuery.trim();
    dataProvider
      .getList<AccountOption & { id: string }>('accounts', {
        pagination: { page: 1, perPage: 20 },
        sort: { field: 'name', order: 'ASC' },
        filter: q.length > 2 ? { q } : {},
      })
      .then(({ data }) => !cancelled && setAccounts(data.map((a) => ({ id: String(a.id), name: a.name }))))
      .catch(() => !cancelled && setAccounts([]));
    return () => {
      cancelled = true;
    };
  }, [open, needsAccount, accountQuery, dataProvider]);

  const errors: Record<string, string | undefined> = {
    loginId: form.loginId.trim().length < 3 ? t('users.form.required') : undefined,
    email: !form.email.trim()
      ? t('users.form.required')
      : !isEmail(form.email)
        ? t('users.form.invalidEmail')
        : undefined,
    firstName: form.firstName.trim() ? undefined : t('users.form.required'),
    lastName: form.lastName.trim() ? undefined : t('users.form.required'),
    account: needsAccount && !account ? t('users.form.required') : undefined,
  };
  const valid = Object.values(errors).every((e) => !e) && roles.includes(role);
  const shown = (f: string) =>
    (touched[f] ? errors[f] : undefined) ?? (error.field === f ? error.message : undefined);
  const field = (name: keyof typeof form, label: string, type = 'text') => (
    <TextField
      label={label}
      name={name}
      type={type}
      required
      value={form[name]}
      onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.value }))}
      onBlur={() => setTouched((s) => ({ ...s, [name]: true }))}
      error={Boolean(shown(name))}
      helperText={shown(name) ?? ' '}
      fullWidth
    />
  );

  const submit = async () => {
    setSaving(true);
    setError({});
    try {
      await dataProvider.create('users', {
        data: {
          loginId: form.loginId.trim(),
          email: form.email.trim(),
          firstName: form.firstName.trim(),
          lastName: form.lastName.trim(),
          role,
          authenticationProvider: 'OKTA',
          ...(needsAccount && account ? { account: account.id } : {}),
        },
      });
      toast('success', t('users.messages.added'));
      onAdded();
      onClose();
    } catch (err) {
      const e = serverError(err);
      setError(e);
      toast('error', t('users.messages.addFailed'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      data-testid="add-user-dialog"
    >
      <DialogTitle>{t('users.form.addTitle')}</DialogTitle>
      <DialogContent dividers>
        {roles.length === 0 ? <Alert severity="warning">{t('users.form.noRoles')}</Alert> : null}
        {error.message && !error.field ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {error.message}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, pt: 1 }}>
          {field('loginId', t('users.form.loginId'))}
          {field('email', t('users.form.email'), 'email')}
          {field('firstName', t('users.form.firstName'))}
          {field('lastName', t('users.form.lastName'))}
          <TextField
            select
            label={t('users.form.role')}
            name="role"
            value={role}
            onChange={(e) => setRole(e.target.value as Role)}
            helperText=" "
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': 'role-select' } }}
          >
            {roles.map((r) => (
              <MenuItem key={r} value={r}>
                {t(`users.roles.${r}`)}
              </MenuItem>
            ))}
          </TextField>
          {needsAccount ? (
            <Autocomplete
              options={accounts}
              value={account}
              onChange={(_, v) => setAccount(v)}
              inputValue={accountText}
              onInputChange={(_, v) => setAccountText(v)}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              filterOptions={(x) => x}
              renderInput={(params) => (
                <TextField
                  {...params}
                  required
                  label={t('users.form.account')}
                  onBlur={() => setTouched((s) => ({ ...s, account: true }))}
                  error={Boolean(shown('account'))}
                  helperText={shown('account') ?? t('users.form.accountHelp')}
                />
              )}
            />
          ) : (
            <Box />
          )}
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose} color="inherit" disabled={saving}>
          {t('dialogs.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={!valid || saving}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {t('users.form.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
