import { useEffect, useMemo, useState } from 'react';
import { Autocomplete, Checkbox, Chip, TextField } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { isEmail } from '@onco/domain';
import { useSave } from '../../components/FormDialog';
import { useToast } from '../../components/Toast';
import { useT } from '../../components/useT';
import type { Clinician, UserRow } from './api';
import { ReadOnlyField, UserDialog, UserFieldGrid, userTextFields } from './UserFields';
import { serverError, useUserMethods } from './useUserMethods';

export interface UpdateUserDialogProps {
  user: UserRow | null;
  onClose: () => void;
  onUpdated: () => void;
}

interface PhysicianOption {
  id: string;
  label: string;
}

/**
 * The update-user form: loginId read-only, the role as read-only text, names, e-mail and title, and the
 * authorized physicians chosen by name (multi-select of the clinicians).
 */
export function UpdateUserDialog({ user, onClose, onUpdated }: UpdateUserDialogProps) {
  const t = useT();
  const toast = useToast();
  const dataProvider = useDataProvider();
  const methods = useUserMethods();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', title: '' });
  const [authorized, setAuthorized] = useState<string[]>([]);
  const [clinicians, setClinicians] = useState<Clinician[]>([]);
  const [loadingClinicians, setLoadingClinicians] = useState(false);
  const { busy, save } = useSave();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (!user) return;
    setForm({
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      title: user.title ?? '',
    });
    setAuthorized(user.authorizedUsers ?? []);
    setError(undefined);
    setLoadingClinicians(true);
    let cancelled = false;
    methods
      .getClinicians()
      .then(({ data }) => !cancelled && setClinicians(data))
      .catch(() => !cancelled && toast('error', t('users.messages.cliniciansFailed')))
      .finally(() => !cancelled && setLoadingClinicians(false));
    return () => {
      cancelled = true;
    };
  }, [user, methods, toast, t]);

  const options = useMemo<PhysicianOption[]>(() => {
    const byId = new Map<string, PhysicianOption>();
    for (const c of clinicians) {
      if (!c.physicianId || c.id === user?.id) continue;
      byId.set(c.physicianId, { id: c.physicianId, label: `${c.firstName} ${c.lastName}`.trim() });
    }
    // keep authorized physicians that are not (or no longer) among the clinicians visible
    for (const id of authorized) if (!byId.has(id)) byId.set(id, { id, label: id });
    return [...byId.values()].sort((a, b) => a.label.localeCompare(b.label));
  }, [clinicians, authorized, user]);
  const value = options.filter((o) => authorized.includes(o.id));

  const valid = form.firstName.trim() && form.lastName.trim() && isEmail(form.email);

  const submit = () => {
    if (!user) return;
    setError(undefined);
    return save(
      () =>
        dataProvider.update('users', {
          id: user.id,
          data: {
            firstName: form.firstName.trim(),
            lastName: form.lastName.trim(),
            email: form.email.trim(),
            title: form.title.trim() || null,
            authorizedUsers: authorized,
            version: user.version,
          },
          previousData: user,
        }),
      {
        success: t('users.messages.updated'),
        onDone: () => {
          onUpdated();
          onClose();
        },
        onError: (err) => setError(serverError(err).message),
        failure: t('users.messages.updateFailed'),
      },
    );
  };

  const text = userTextFields(form, setForm);

  return (
    <UserDialog
      open={Boolean(user)}
      title={t('users.form.updateTitle')}
      onClose={onClose}
      testId="update-user-dialog"
      busy={busy}
      error={error}
      submitLabel={t('users.form.update')}
      onSubmit={submit}
      submitDisabled={!valid}
    >
      <UserFieldGrid>
        <ReadOnlyField
          label={t('users.form.loginId')}
          value={user?.loginId ?? ''}
          testId="loginId-readonly"
        />
        <ReadOnlyField label={t('users.form.role')} value={user ? t(`users.roles.${user.role.name}`) : ''} />
        {text('firstName', t('users.form.firstName'))}
        {text('lastName', t('users.form.lastName'))}
        {text('email', t('users.form.email'))}
        {text('title', t('users.form.title'), { required: false })}
      </UserFieldGrid>
      <Autocomplete
        multiple
        disableCloseOnSelect
        loading={loadingClinicians}
        options={options}
        value={value}
        onChange={(_, v) => setAuthorized(v.map((o) => o.id))}
        getOptionLabel={(o) => o.label}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        renderOption={(props, option, { selected }) => {
          const { key, ...rest } = props as typeof props & { key: string };
          return (
            <li key={key} {...rest}>
              <Checkbox size="small" checked={selected} sx={{ mr: 1 }} />
              {option.label}
            </li>
          );
        }}
        renderValue={(selected, getItemProps) =>
          selected.map((o, index) => {
            const { key, ...rest } = getItemProps({ index });
            return <Chip key={key} size="small" label={o.label} {...rest} />;
          })
        }
        renderInput={(params) => (
          <TextField
            {...params}
            label={t('users.form.authorizedUsers')}
            helperText={t('users.form.authorizedUsersHelp')}
          />
        )}
      />
    </UserDialog>
  );
}
