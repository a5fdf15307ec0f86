import { useEffect, useState } from 'react';
import {
  Box,
  CircularProgress,
  InputAdornment,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Radio,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { searchApplies } from '../../components/listState';
import { useToast } from '../../components/Toast';
import { useDebounced } from '../../components/useDebounced';
import { useT } from '../../components/useT';
import { DIRECTORY_PAGE_SIZE, type UserRow } from './api';
import { COMPANY_NAME } from './userActions';
import { ReadOnlyField, UserDialog } from './UserFields';
import { serverError, useUserMethods } from './useUserMethods';

export interface DirectoryUserDialogProps {
  open: boolean;
  onClose: () => void;
  onAdded: () => void;
}

/** Directory search debounce (spec 2 section 9: 400 ms). */
const DEBOUNCE_MS = 400;

/**
 * Add a company employee from the directory as a portal user: search (debounced, 25 results, 'Showing {n}
 * results.' or 'Showing 25 of {total} results.' with 'Please refine your search.'), role fixed to Admin, Add
 * enabled once an employee is chosen, then a 'Please Confirm' dialog. Adding enables the directory account
 * (the activate action, which the status rules allow for INACTIVE and PROVISIONED directory users).
 */
export function DirectoryUserDialog({ open, onClose, onAdded }: DirectoryUserDialogProps) {
  const t = useT();
  const toast = useToast();
  const methods = useUserMethods();
  const [q, setQ] = useState('');
  const settled = useDebounced(q, DEBOUNCE_MS);
  const [results, setResults] = useState<{ rows: UserRow[]; total: number } | null>(null);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<UserRow | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    if (!open) return;
    setQ('');
    setResults(null);
    setChosen(null);
  }, [open]);

  useEffect(() => {
    if (!open || !searchApplies(settled)) {
      setResults(null);
      return;
    }
    let cancelled = false;
    setLoading(true);
    methods
      .searchDirectoryUsers({ q: settled })
      .then(({ data, total }) => {
        if (cancelled) return;
        setResults({ rows: data, total });
        setChosen((c) => (c && data.some((r) => r.id === c.id) ? c : null));
      })
      .catch(() => !cancelled && toast('error', t('users.messages.listFailed')))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [open, settled, methods, toast, t]);

  const add = async () => {
    if (!chosen) return;
    const name = `${chosen.firstName} ${chosen.lastName}`;
    setAdding(true);
    try {
      await methods.userAction({ id: chosen.id, action: 'activate' });
      toast('success', t('users.done.addDirectoryUser', { name }));
      setConfirming(false);
      onAdded();
      onClose();
    } catch (err) {
      const reason = serverError(err).message;
      toast('error', [t('users.failed.addDirectoryUser', { name }), reason].filter(Boolean).join(' '));
      setConfirming(false);
    } finally {
      setAdding(false);
    }
  };

  const summary = results
    ? results.total > DIRECTORY_PAGE_SIZE
      ? t('users.directory.showingOf', { total: results.total })
      : t('users.directory.showing', { n: results.rows.length })
    : null;

  return (
    <>
      <UserDialog
        open={open}
        title={t('users.directory.title', { company: COMPANY_NAME })}
        onClose={onClose}
        testId="directory-user-dialog"
        submitLabel={t('users.directory.add')}
        onSubmit={() => setConfirming(true)}
        submitDisabled={!chosen}
      >
        <TextField
          autoFocus
          fullWidth
          value={q}
          onChange={(e) => setQ(e.target.value)}
          placeholder={t('users.directory.search')}
          slotProps={{
            htmlInput: { 'data-testid': 'directory-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
              endAdornment: loading ? <CircularProgress size={16} /> : undefined,
            },
          }}
        />
        <Box
          sx={{
            mt: 1.5,
            minHeight: 220,
            maxHeight: 360,
            overflow: 'auto',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
          }}
        >
          {!results ? (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
              {t('lists.enterToSearch')}
            </Typography>
          ) : results.rows.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }}>
              {t('lists.noRecords')}
            </Typography>
          ) : (
            <List dense disablePadding>
              {results.rows.map((u) => (
                <ListItemButton
                  key={u.id}
                  selected={chosen?.id === u.id}
                  onClick={() => setChosen(u)}
                  divider
                >
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <Radio size="small" edge="start" checked={chosen?.id === u.id} tabIndex={-1} />
                  </ListItemIcon>
                  <ListItemText
                    primary={`${u.firstName} ${u.lastName}`}
                    secondary={`${u.loginId} · ${u.email}`}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
        </Box>
        {summary ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="directory-summary">
            {summary}
            {results && results.total > DIRECTORY_PAGE_SIZE ? ` ${t('lists.refineSearch')}` : ''}
          </Typography>
        ) : null}
        <ReadOnlyField
          label={t('users.form.role')}
          value={t('users.directory.roleFixed')}
          helperText=""
          sx={{ mt: 2.5 }}
        />
      </UserDialog>
      <ConfirmDialog
        open={confirming}
        message={
          chosen
            ? t('users.confirm.addDirectoryUser', { name: `${chosen.firstName} ${chosen.lastName}` })
            : ''
        }
        onConfirm={add}
        onClose={() => setConfirming(false)}
        loading={adding}
      />
    </>
  );
}
