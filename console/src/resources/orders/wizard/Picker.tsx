import { Autocomplete, CircularProgress, Grid, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { searchTermApplies } from '@onco/domain';
import { useDebounced } from '../../../components';
import { useWizardApi } from './api';
import { useWizardT } from './useWizardT';

export interface PickerProps<T> {
  /** a `wizard.fields.*` key */
  label: string;
  /** list path under the portal (or an absolute /area/api path) */
  resource: string;
  /** extra filter sent with q */
  filter?: Record<string, unknown>;
  /** debounce of the typed search in ms (spec 1 section 9: 400, or 100 for account and location) */
  debounceMs: number;
  /** page size (20; payors 15) */
  size?: number;
  /** search only at 3+ characters (the spec's pickers); false lists without a term (account, location) */
  needsTerm?: boolean;
  optionLabel: (row: T) => string;
  onPick: (row: T) => void;
  disabled?: boolean;
  cols?: number;
  id: string;
}

/** A search-as-you-type picker over a reference list; picking fills the block through onPick. */
export function Picker<T extends { id?: string | null }>(props: PickerProps<T>) {
  const t = useWizardT();
  const api = useWizardApi();
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const term = useDebounced(input, props.debounceMs);
  const needsTerm = props.needsTerm ?? true;
  const filterKey = JSON.stringify(props.filter ?? {});

  useEffect(() => {
    if (!open) return;
    const applies = searchTermApplies(term);
    if (needsTerm && !applies) {
      setRows([]);
      return;
    }
    let live = true;
    setLoading(true);
    const filter = {
      ...(JSON.parse(filterKey) as Record<string, unknown>),
      ...(applies ? { q: term.trim() } : {}),
    };
    api
      .list<T>(props.resource, filter, props.size ?? 20)
      .then((page) => live && setRows(page.content ?? []))
      .catch(() => live && setRows([]))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [term, open, filterKey, props.resource, props.size, needsTerm, api]);

  return (
    <Grid size={{ xs: 12, md: props.cols ?? 6 }}>
      <Autocomplete<T>
        id={props.id}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        options={rows}
        filterOptions={(x) => x}
        loading={loading}
        disabled={props.disabled}
        value={null}
        inputValue={input}
        onInputChange={(_, v, reason) => reason !== 'reset' && setInput(v)}
        getOptionLabel={(o) => props.optionLabel(o)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        onChange={(_, row) => {
          if (row) {
            props.onPick(row);
            setInput('');
          }
        }}
        noOptionsText={
          needsTerm && !searchTermApplies(input)
            ? t('wizard.fields.typeToSearch')
            : t('wizard.fields.noOptions')
        }
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label={t(props.label)}
            slotProps={{
              input: {
                ...params.InputProps,
                endAdornment: (
                  <>
                    {loading ? <CircularProgress color="inherit" size={16} /> : null}
                    {params.InputProps.endAdornment}
                  </>
                ),
              },
            }}
          />
        )}
      />
    </Grid>
  );
}
