import { Alert, Grid, LinearProgress, List, ListItemButton, ListItemText, TextField } from '@mui/material';
import { useState } from 'react';
import { FormDialog } from '../../../components';
import { useWizardApi } from './api';
import { useWizardT } from './useWizardT';

export interface NpiResult {
  userId: string;
  name?: string;
  firstName?: string;
  middleName?: string;
  lastName?: string;
  credential?: string;
  specialty?: string;
  locations?: Array<{ name?: string; purpose?: string; address?: Record<string, string | null> }>;
}

/** The registry query: a 10-digit number, or a first name (optionally a last name); the number wins. */
export function npiQuery(firstName: string, lastName: string, number: string): Record<string, string> | null {
  const n = number.replace(/\D/g, '');
  if (n.length === 10) return { number: n };
  if (firstName.trim().length >= 2) {
    return lastName.trim()
      ? { firstName: firstName.trim(), lastName: lastName.trim() }
      : { firstName: firstName.trim() };
  }
  return null;
}

/** NPI lookup (VIEW_NPI_REGISTRY): search the national registry, pick a provider. */
export function NpiLookupDialog({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (r: NpiResult) => void;
}) {
  const t = useWizardT();
  const api = useWizardApi();
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [number, setNumber] = useState('');
  const [rows, setRows] = useState<NpiResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const query = npiQuery(first, last, number);

  const search = async () => {
    if (!query) return;
    setLoading(true);
    setError(null);
    try {
      const res = await api.getWith<{ content: NpiResult[] }>('npiRegistry', query);
      setRows(res.content ?? []);
    } catch (e) {
      setError((e as Error).message);
      setRows(null);
    } finally {
      setLoading(false);
    }
  };

  return (
    <FormDialog
      open={open}
      title={t('wizard.npi.title')}
      onClose={onClose}
      cancelLabel={t('wizard.buttons.cancel')}
      submitLabel={t('wizard.npi.search')}
      onSubmit={search}
      submitDisabled={!query || loading}
    >
      <Grid container spacing={2} sx={{ mt: 0.5 }}>
        {(
          [
            ['npi-first', 'firstName', first, setFirst],
            ['npi-last', 'lastName', last, setLast],
            ['npi-number', 'npi', number, setNumber],
          ] as const
        ).map(([name, label, value, set]) => (
          <Grid key={name} size={{ xs: 12, sm: 4 }}>
            <TextField
              fullWidth
              size="small"
              name={name}
              label={t(`wizard.fields.${label}`)}
              value={value}
              onChange={(e) => set(e.target.value)}
            />
          </Grid>
        ))}
      </Grid>
      {loading && <LinearProgress sx={{ mt: 1 }} />}
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {rows && (
        <List dense sx={{ maxHeight: 320, overflowY: 'auto' }}>
          {rows.length === 0 && <ListItemText sx={{ px: 2 }} primary={t('wizard.dx.noResults')} />}
          {rows.map((r) => (
            <ListItemButton key={r.userId} data-npi={r.userId} onClick={() => onPick(r)}>
              <ListItemText
                primary={`${r.name ?? `${r.firstName ?? ''} ${r.lastName ?? ''}`}${r.credential ? `, ${r.credential}` : ''} · ${r.userId}`}
                secondary={[r.specialty, r.locations?.[0]?.name].filter(Boolean).join(' · ')}
              />
            </ListItemButton>
          ))}
        </List>
      )}
    </FormDialog>
  );
}
