import { useEffect, useState } from 'react';
import { IconButton, InputAdornment, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ClearIcon from '@mui/icons-material/Clear';
import { SEARCH_DEBOUNCE_MS } from './listState';
import { useDebounced } from './useDebounced';
import { useT } from './useT';

export interface SearchBoxProps {
  /** the applied text (the list applies it only above 2 characters) */
  value: string;
  onChange: (q: string) => void;
  placeholder?: string;
  debounceMs?: number;
  width?: number;
}

/** The list's search box: typed text is passed on after a pause (400 ms); Enter passes it at once. */
export function SearchBox({
  value,
  onChange,
  placeholder,
  debounceMs = SEARCH_DEBOUNCE_MS,
  width = 240,
}: SearchBoxProps) {
  const t = useT();
  const [text, setText] = useState(value);
  const settled = useDebounced(text, debounceMs);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (settled !== value) onChange(settled);
    // only a settled change of the text is passed on
  }, [settled]);
  return (
    <TextField
      size="small"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onChange(text);
      }}
      placeholder={placeholder ?? t('lists.search')}
      title={t('lists.searchHint')}
      sx={{ width, bgcolor: 'background.paper' }}
      slotProps={{
        htmlInput: { 'aria-label': placeholder ?? t('lists.search'), 'data-testid': 'list-search' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: text ? (
            <InputAdornment position="end">
              <IconButton
                size="small"
                aria-label={t('lists.clear')}
                onClick={() => {
                  setText('');
                  onChange('');
                }}
              >
                <ClearIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
        },
      }}
    />
  );
}
