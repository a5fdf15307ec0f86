import { useMemo, useState } from 'react';
import {
  Badge,
  Box,
  Button,
  Checkbox,
  Divider,
  InputAdornment,
  Link,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Popover,
  TextField,
  Typography,
} from '@mui/material';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import SearchIcon from '@mui/icons-material/Search';
import {
  FILTER_LIST_CAP,
  FILTER_SEARCH_DEBOUNCE_MS,
  canApply,
  facetValueKey,
  toggleValue,
  visibleFacetItems,
  type FacetItem,
} from './listState';
import { useDebounced } from './useDebounced';
import { useT } from './useT';

export interface FacetFilterProps {
  /** the filter's name on its button (e.g. "User Status") */
  label: string;
  /** the facet's items from the server (value, count, optional label) */
  items: FacetItem[];
  /** the values applied now */
  applied: string[];
  onApply: (values: string[]) => void;
  /** how an item reads (defaults to its label, else its value) */
  itemLabel?: (item: FacetItem) => string;
}

/**
 * One filter of the toolbar: a button opening a checkbox list of the facet's items with counts. The first 20
 * until 'Show All ({n})', 'Show Less'; a search inside the list (debounced 300 ms); Apply disabled when nothing
 * is selected and no filter is active.
 */
export function FacetFilter({ label, items, applied, onApply, itemLabel }: FacetFilterProps) {
  const t = useT();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [draft, setDraft] = useState<string[]>(applied);
  const [search, setSearch] = useState('');
  const [showAll, setShowAll] = useState(false);
  const settled = useDebounced(search, FILTER_SEARCH_DEBOUNCE_MS);
  const text = (i: FacetItem) => itemLabel?.(i) ?? i.label ?? (facetValueKey(i.value) || '—');
  // the applied values stay listed even when the current facet counts no longer contain them
  const all = useMemo(() => {
    const known = new Set(items.map((i) => facetValueKey(i.value)));
    return [...items, ...applied.filter((v) => !known.has(v)).map((v) => ({ value: v, count: 0 }))];
  }, [items, applied]);
  const shown = visibleFacetItems(
    all.map((i) => ({ ...i, label: text(i) })),
    settled,
    showAll,
  );

  const open = (e: React.MouseEvent<HTMLElement>) => {
    setDraft(applied);
    setSearch('');
    setShowAll(false);
    setAnchor(e.currentTarget);
  };
  const apply = () => {
    onApply(draft);
    setAnchor(null);
  };

  return (
    <>
      <Badge color="secondary" badgeContent={applied.length} invisible={applied.length === 0}>
        <Button
          variant={applied.length ? 'contained' : 'outlined'}
          color={applied.length ? 'primary' : 'inherit'}
          size="small"
          onClick={open}
          endIcon={<ArrowDropDownIcon />}
          sx={{
            textTransform: 'none',
            borderColor: 'divider',
            bgcolor: applied.length ? undefined : 'background.paper',
            fontWeight: 500,
          }}
          aria-haspopup="dialog"
          data-testid={`facet-${label}`}
        >
          {label}
        </Button>
      </Badge>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
        slotProps={{ paper: { sx: { width: 320, mt: 0.5 } } }}
      >
        <Box sx={{ p: 1.5, pb: 1 }}>
          <TextField
            size="small"
            fullWidth
            autoFocus
            placeholder={t('lists.filterSearch', { name: label })}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
          {all.length > FILTER_LIST_CAP ? (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.75 }}>
              {t('lists.filterHint')}
            </Typography>
          ) : null}
        </Box>
        <Divider />
        <List dense sx={{ maxHeight: 340, overflow: 'auto', py: 0.5 }}>
          {shown.items.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
              {t('lists.noFilterItems')}
            </Typography>
          ) : (
            shown.items.map((item) => {
              const key = facetValueKey(item.value);
              const checked = draft.includes(key);
              return (
                <ListItemButton key={key} onClick={() => setDraft((d) => toggleValue(d, key))} sx={{ py: 0 }}>
                  <ListItemIcon sx={{ minWidth: 34 }}>
                    <Checkbox edge="start" size="small" checked={checked} tabIndex={-1} disableRipple />
                  </ListItemIcon>
                  <ListItemText
                    primary={item.label}
                    slotProps={{ primary: { noWrap: true, title: item.label } }}
                  />
                  <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                    {item.count}
                  </Typography>
                </ListItemButton>
              );
            })
          )}
        </List>
        {shown.hasMore ? (
          <Box sx={{ px: 2, pb: 1 }}>
            <Link component="button" variant="body2" onClick={() => setShowAll((s) => !s)}>
              {showAll ? t('lists.showLess') : t('lists.showAll', { n: shown.matching })}
            </Link>
          </Box>
        ) : null}
        <Divider />
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, p: 1 }}>
          <Button size="small" color="inherit" onClick={() => setDraft([])} disabled={draft.length === 0}>
            {t('lists.clear')}
          </Button>
          <Button size="small" variant="contained" onClick={apply} disabled={!canApply(draft, applied)}>
            {t('lists.apply')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}
