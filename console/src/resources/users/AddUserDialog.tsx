import { useEffect, useMemo, useState } from 'react';
import { Alert, Autocomplete, Box, MenuItem, TextField } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { ACCOUNT_ROLES, creatableRoles, isEmail, type Role } from '@onco/domain';
import { useSave } from '../../components/FormDialog';
import { useDebounced } from '../../components/useDebounced';
import { useT } from '../../components/useT';
import { UserDialog, UserFieldGrid, userTextFields } from './UserFields';
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
  const dataProvider = useDataProvider();
  const roles = useMemo(() => creatableRoles(creatorRole), [creatorRole]);
  const initialRole = roles.includes(DEFAULT_ROLE) ? DEFAULT_ROLE : (roles[0] ?? DEFAULT_ROLE);
  const [form, setForm] = useState({ loginId: '', email: '', firstName: '', lastName: '' });
  const [role, setRole] = useState<Role>(initialRole);
  const [account, setAccount] = useState<AccountOption | null>(null);
  const [accountText, setAccountText] = useState('');
  const [accounts, setAccounts] = useState<AccountOption[]>([]);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const { busy, save } = useSave();
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
  const field = userTextFields(form, setForm, shown, (name) => setTouched((s) => ({ ...s, [name]: true })));

  const submit = () => {
    setError({});
    return save(
      () =>
        dataProvider.create('users', {
          data: {
            loginId: form.loginId.trim(),
            email: form.email.trim(),
            firstName: form.firstName.trim(),
            lastName: form.lastName.trim(),
            role,
            authenticationProvider: 'OKTA',
            ...(needsAccount && account ? { account: account.id } : {}),
          },
        }),
      {
        success: t('users.messages.added'),
        onDone: () => {
          onAdded();
          onClose();
        },
        onError: (err) => setError(serverError(err)),
        failure: t('users.messages.addFailed'),
      },
    );
  };

  return (
    <UserDialog
      open={open}
      title={t('users.form.addTitle')}
      onClose={onClose}
      testId="add-user-dialog"
      busy={busy}
      error={error.message && !error.field ? error.message : undefined}
      submitLabel={t('users.form.add')}
      onSubmit={submit}
      submitDisabled={!valid}
    >
      {roles.length === 0 ? <Alert severity="warning">{t('users.form.noRoles')}</Alert> : null}
      <UserFieldGrid>
        {field('loginId', t('users.form.loginId'))}
        {field('email', t('users.form.email'), { type: 'email' })}
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
      </UserFieldGrid>
    </UserDialog>
  );
}
