import { useCallback, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react';
import { Box, Divider, Link, Paper, Typography } from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useQuery } from '@tanstack/react-query';
import { useGetList, type Identifier, type RaRecord } from 'react-admin';
import { Banner } from './Banner';
import { DataTable, type Column, type SelectionMode } from './DataTable';
import { FacetFilter } from './FacetFilter';
import { listMethods } from './listApi';
import {
  activeFilterCount,
  facetValueKey,
  listReducer,
  PAGE_SIZES,
  searchApplies,
  serverFilter,
  type Facet,
  type FacetItem,
  type ListState,
  type SortOrder,
} from './listState';
import { PageSizeSelect } from './PageSizeSelect';
import { Paginator } from './Paginator';
import { SearchBox } from './SearchBox';
import { useCustomMethods } from './useCustomMethods';
import { useListPreference } from './useListPreference';
import { useT } from './useT';

const fallback = listMethods();

export interface FacetFilterDef {
  /** the server facet's name, e.g. status_facet */
  name: string;
  /** the filter field it narrows, e.g. status */
  field: string;
  label: string;
  itemLabel?: (item: FacetItem) => string;
}

export interface ListContext<T extends RaRecord = RaRecord> {
  rows: T[];
  total: number;
  /** the selected records (kept across pages for multi-select) */
  selected: T[];
  selectedIds: Identifier[];
  setSelectedIds: (ids: Identifier[]) => void;
  /** refetch the rows and the facets */
  refresh: () => void;
  state: ListState;
  /** the filter object the list sends */
  filter: Record<string, unknown>;
}

export interface ListPageProps<T extends RaRecord = RaRecord> {
  /** the data-provider resource, e.g. "users" */
  resource: string;
  /** the name its filters are remembered under (defaults to resource) */
  listName?: string;
  title: ReactNode;
  subtitle?: ReactNode;
  bannerRight?: ReactNode;
  /** the table's columns, or a function of the list (for cells whose actions refresh it) */
  columns: Column<T>[] | ((ctx: ListContext<T>) => Column<T>[]);
  /** filter lists, filled from the server's facets ({resource}/facets) */
  facets?: FacetFilterDef[];
  /** filters always sent (e.g. a toggle's status) */
  baseFilter?: Record<string, unknown>;
  perPageOptions?: readonly number[];
  defaultPerPage?: number;
  defaultSort?: { field: string; order: SortOrder };
  selection?: SelectionMode;
  isRowDisabled?: (row: T) => boolean;
  onRowClick?: (row: T) => void;
  onRowContextMenu?: (row: T, event: React.MouseEvent, ctx: ListContext<T>) => void;
  /** the spec's empty text for this list, e.g. "No users found" */
  emptyText: ReactNode;
  /** the empty text when filters or a search leave nothing (default 'No records found.') */
  filteredEmptyText?: ReactNode;
  searchPlaceholder?: string;
  /** whether the search box shows (default true; e.g. patients only with canSearchPatient) */
  search?: boolean;
  /** toolbar content beside the search box (Actions menu, Add buttons) */
  actions?: (ctx: ListContext<T>) => ReactNode;
  /** anything else that needs the list (dialogs, context menus) */
  children?: (ctx: ListContext<T>) => ReactNode;
  /** remember applied filters per list (default true) */
  rememberFilters?: boolean;
}

/**
 * The list page every screen uses: banner; toolbar with the facet filters, a reset, actions and the search box;
 * the table with sorting and selection; page size and pagination. Rows come from the data provider's getList,
 * filter lists from its getFacets. Filters, search, sort and page size go back to page 1 and clear the selection.
 */
export function ListPage<T extends RaRecord = RaRecord>(props: ListPageProps<T>) {
  const {
    resource,
    listName = resource,
    title,
    subtitle,
    bannerRight,
    columns,
    facets = [],
    baseFilter,
    perPageOptions = PAGE_SIZES,
    defaultPerPage = 15,
    defaultSort = { field: 'updatedOn', order: 'DESC' },
    selection = 'none',
    isRowDisabled,
    onRowClick,
    onRowContextMenu,
    emptyText,
    filteredEmptyText,
    searchPlaceholder,
    search = true,
    actions,
    children,
    rememberFilters = true,
  } = props;
  const t = useT();
  const methods = useCustomMethods(fallback);
  const pref = useListPreference(listName, rememberFilters, (saved) => {
    dispatch({ type: 'filters', filters: saved.filters ?? {} });
    if (saved.q) dispatch({ type: 'q', q: saved.q });
  });
  const [state, dispatch] = useReducer(listReducer, undefined, () => ({
    page: 1,
    perPage: defaultPerPage,
    sort: defaultSort,
    filters: pref.initial.filters ?? {},
    q: pref.initial.q ?? '',
    toggle: pref.initial.toggle ?? null,
  }));
  useEffect(() => pref.save(state), [pref, state]);

  const filter = useMemo(
    () => serverFilter(search ? state : { ...state, q: '' }, baseFilter),
    [state, baseFilter, search],
  );
  const list = useGetList<T>(
    resource,
    {
      pagination: { page: state.page, perPage: state.perPage },
      sort: state.sort,
      filter,
    },
    { placeholderData: (previous) => previous, enabled: pref.ready },
  );
  const facetQuery = useQuery({
    queryKey: [resource, 'facets', filter],
    queryFn: () => methods.getFacets(resource, { filter }).then((r) => r.data),
    enabled: facets.length > 0 && pref.ready,
    placeholderData: (previous: Facet[] | undefined) => previous,
  });

  // selection: ids plus the records seen, so multi-select survives paging; query changes clear it
  const [selectedIds, setSelectedIds] = useState<Identifier[]>([]);
  const [seen, setSeen] = useState<Record<string, T>>({});
  const queryKey = JSON.stringify([filter, state.sort, state.perPage]);
  useEffect(() => setSelectedIds([]), [queryKey]);
  const rows = useMemo(() => list.data ?? [], [list.data]);
  useEffect(() => {
    if (rows.length) setSeen((s) => ({ ...s, ...Object.fromEntries(rows.map((r) => [String(r.id), r])) }));
  }, [rows]);
  const selected = useMemo(
    () =>
      selectedIds
        .map((id) => rows.find((r) => r.id === id) ?? seen[String(id)])
        .filter((r): r is T => Boolean(r)),
    [selectedIds, rows, seen],
  );
  const { refetch } = list;
  const refetchFacets = facetQuery.refetch;
  const refresh = useCallback(() => {
    void refetch();
    if (facets.length) void refetchFacets();
  }, [refetch, refetchFacets, facets.length]);

  const ctx: ListContext<T> = {
    rows,
    total: list.total ?? 0,
    selected,
    selectedIds,
    setSelectedIds,
    refresh,
    state,
    filter,
  };
  const facetItems = (name: string): FacetItem[] =>
    (facetQuery.data ?? []).find((f) => f.name === name)?.items ?? [];
  const filtered = activeFilterCount(state.filters) > 0 || searchApplies(state.q);

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }}>
      <Banner title={title} subtitle={subtitle} right={bannerRight} />
      <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: 1.25, flexWrap: 'wrap', px: 2, py: 1.5 }}
          data-testid="list-toolbar"
        >
          {facets.length ? (
            <>
              <FilterListIcon fontSize="small" sx={{ color: 'text.secondary' }} />
              <Typography variant="body2" color="text.secondary" sx={{ mr: 0.5 }}>
                {t('lists.filters')}
              </Typography>
              {facets.map((f) => (
                <FacetFilter
                  key={f.name}
                  label={f.label}
                  items={facetItems(f.name)}
                  applied={state.filters[f.field] ?? []}
                  itemLabel={f.itemLabel}
                  onApply={(values) => dispatch({ type: 'filter', field: f.field, values })}
                />
              ))}
              {activeFilterCount(state.filters) > 0 ? (
                <Link
                  component="button"
                  variant="body2"
                  onClick={() => dispatch({ type: 'filters', filters: {} })}
                  sx={{ ml: 0.5 }}
                >
                  {t('lists.resetFilters')}
                </Link>
              ) : null}
            </>
          ) : null}
          <Box sx={{ flex: 1 }} />
          {actions?.(ctx)}
          {search ? (
            <SearchBox
              value={state.q}
              onChange={(q) => dispatch({ type: 'q', q })}
              placeholder={searchPlaceholder}
            />
          ) : null}
        </Box>
        <Divider />
        <DataTable<T>
          columns={typeof columns === 'function' ? columns(ctx) : columns}
          rows={rows}
          loading={list.isPending}
          fetching={list.isFetching}
          emptyText={
            list.error
              ? t('lists.loadFailed')
              : filtered
                ? (filteredEmptyText ?? t('lists.noRecords'))
                : emptyText
          }
          sort={state.sort}
          onSort={(field) => dispatch({ type: 'sort', field })}
          selection={selection}
          selectedIds={selectedIds}
          onSelect={setSelectedIds}
          isRowDisabled={isRowDisabled}
          onRowClick={onRowClick}
          onRowContextMenu={onRowContextMenu ? (row, e) => onRowContextMenu(row, e, ctx) : undefined}
        />
        <Divider />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', px: 2, py: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {selection === 'multi' && selectedIds.length
              ? t('lists.selected', { n: selectedIds.length })
              : ''}
          </Typography>
          <Box sx={{ flex: 1 }} />
          <PageSizeSelect
            value={state.perPage}
            options={perPageOptions}
            onChange={(perPage) => dispatch({ type: 'perPage', perPage })}
          />
          <Paginator
            page={state.page}
            perPage={state.perPage}
            total={list.total ?? 0}
            onChange={(page) => dispatch({ type: 'page', page })}
          />
        </Box>
      </Paper>
      {children?.(ctx)}
    </Box>
  );
}

export { facetValueKey };
