import {
  Box,
  IconButton,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import AddCircleOutline from '@mui/icons-material/AddCircleOutline';
import RemoveCircleOutline from '@mui/icons-material/RemoveCircleOutline';
import { useEffect, useState } from 'react';
import { API, canAddIcd10Code, icd10List, searchTermApplies } from '@onco/domain';
import { FormDialog, useDebounced } from '../../../components';
import { useWizardApi } from './api';
import { useWizardT } from './useWizardT';

/** Spec 1 section 9: ICD-10 search debounce 900 ms, fetch size 1000. */
export const ICD10_DEBOUNCE_MS = 900;
export const ICD10_FETCH_SIZE = 1000;

export interface Icd10Code {
  id?: string;
  code: string;
  formattedCode: string;
  description: string;
}

/** The ICD-10 Codes modal (width 800): search, available and selected lists; add disabled at 6. */
export function Icd10Dialog({
  open,
  value,
  onClose,
  onDone,
}: {
  open: boolean;
  /** the stored comma-separated codes */
  value: string | null | undefined;
  onClose: () => void;
  onDone: (codes: string) => void;
}) {
  const t = useWizardT();
  const api = useWizardApi();
  const [q, setQ] = useState('');
  const term = useDebounced(q, ICD10_DEBOUNCE_MS);
  const [available, setAvailable] = useState<Icd10Code[]>([]);
  const [selected, setSelected] = useState<Icd10Code[]>([]);
  const [loading, setLoading] = useState(false);

  // the stored codes with their descriptions
  useEffect(() => {
    if (!open) return;
    setQ('');
    setAvailable([]);
    const codes = icd10List(value);
    setSelected(codes.map((c) => ({ code: c, formattedCode: c, description: '' })));
    if (!codes.length) return;
    let live = true;
    api
      .list<Icd10Code>(`${API.dxs}/icddx`, { formattedCode: `in(${codes.join(', ')})` }, ICD10_FETCH_SIZE)
      .then(
        (p) =>
          live &&
          setSelected(
            codes.map(
              (c) =>
                p.content.find((x) => x.formattedCode === c) ?? {
                  code: c,
                  formattedCode: c,
                  description: '',
                },
            ),
          ),
      )
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, value, api]);

  useEffect(() => {
    if (!open || !searchTermApplies(term)) return setAvailable([]);
    let live = true;
    setLoading(true);
    api
      .list<Icd10Code>(`${API.dxs}/icddx`, { q: term.trim() }, ICD10_FETCH_SIZE)
      .then((p) => live && setAvailable(p.content ?? []))
      .catch(() => live && setAvailable([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, term, api]);

  const chosen = new Set(selected.map((s) => s.formattedCode));
  const canAdd = canAddIcd10Code(selected.map((s) => s.formattedCode));
  const tooShort = q.trim().length > 0 && !searchTermApplies(q);

  return (
    <FormDialog
      open={open}
      title={t('wizard.icd10.title')}
      onClose={onClose}
      maxWidth={false}
      dialogProps={{ fullWidth: false, slotProps: { paper: { sx: { width: 800 } } } }}
      cancelLabel={t('wizard.buttons.cancel')}
      submitLabel={t('wizard.buttons.done')}
      onSubmit={() => onDone(selected.map((s) => s.formattedCode).join(','))}
    >
      <TextField
        autoFocus
        fullWidth
        size="small"
        name="icd10-search"
        label={t('wizard.icd10.search')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        error={tooShort}
        helperText={tooShort ? t('wizard.rules.icdSearchMinimum') : ' '}
        sx={{ mt: 1 }}
      />
      {loading && <LinearProgress />}
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2, mt: 1 }}>
        <Box>
          <Typography variant="subtitle2">{t('wizard.icd10.available')}</Typography>
          <List
            dense
            sx={{ height: 320, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
          >
            {available
              .filter((c) => !chosen.has(c.formattedCode))
              .map((c) => (
                <ListItemButton
                  key={c.formattedCode}
                  disabled={!canAdd}
                  data-code={c.formattedCode}
                  onClick={() => setSelected((s) => [...s, c])}
                >
                  <ListItemText primary={c.formattedCode} secondary={c.description} />
                  <IconButton edge="end" size="small" tabIndex={-1} aria-label={t('wizard.icd10.add')}>
                    <AddCircleOutline fontSize="small" />
                  </IconButton>
                </ListItemButton>
              ))}
          </List>
        </Box>
        <Box>
          <Typography variant="subtitle2">
            {t('wizard.icd10.selected')} ({selected.length}/6)
          </Typography>
          <List
            dense
            sx={{ height: 320, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
          >
            {selected.map((c) => (
              <ListItemButton
                key={c.formattedCode}
                data-selected-code={c.formattedCode}
                onClick={() => setSelected((s) => s.filter((x) => x.formattedCode !== c.formattedCode))}
              >
                <ListItemText primary={c.formattedCode} secondary={c.description} />
                <IconButton edge="end" size="small" tabIndex={-1} aria-label={t('wizard.buttons.remove')}>
                  <RemoveCircleOutline fontSize="small" />
                </IconButton>
              </ListItemButton>
            ))}
          </List>
        </Box>
      </Box>
    </FormDialog>
  );
}
