/**
 * The state of a list page and the rules the spec gives it (spec 2 sections 2.2 and 9, spec 3 sections 3, 5
 * and 9.1), as pure functions so they are tested without a browser:
 * - free-text search counts only when longer than 2 characters;
 * - filter lists show the first 20 items until "Show All ({n})"; the search inside a list is debounced 300 ms;
 * - Apply is disabled when nothing is selected and no filter is active;
 * - changing filters, search, sort or page size goes back to page 1 (and clears the row selection);
 * - applied filters are remembered per list in a preference record {toggleFilter, listFilters, simpleFilters,
 *   calendarFilters}.
 */
export type FacetValue = string | number | boolean | null;
export interface FacetItem {
  value: FacetValue;
  count: number;
  /** a display label the server adds (e.g. role labels) */
  label?: string;
}
export interface Facet {
  name: string;
  items: FacetItem[];
}

/** field -> the values chosen in its filter list */
export type ListFilters = Record<string, string[]>;
export type SortOrder = 'ASC' | 'DESC';

export interface ListState {
  /** 1-based */
  page: number;
  perPage: number;
  sort: { field: string; order: SortOrder };
  filters: ListFilters;
  /** the search box text as typed */
  q: string;
  /** a toggle (e.g. Draft / Submitted) when the list has one */
  toggle?: string | null;
}

export const FILTER_LIST_CAP = 20;
export const FILTER_SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_DEBOUNCE_MS = 400;
export const PAGE_SIZES = [15, 20, 30, 40, 50] as const;

/** Search text is applied only when longer than 2 characters. */
export function searchApplies(q: string | null | undefined): boolean {
  return (q ?? '').trim().length > 2;
}

export const facetValueKey = (v: FacetValue): string => (v === null ? '' : String(v));

/** The filter object sent to the server: chosen lists as arrays (the server reads them as in(...)), q when it applies. */
export function serverFilter(state: Pick<ListState, 'filters' | 'q'>, base: Record<string, unknown> = {}) {
  const out: Record<string, unknown> = { ...base };
  for (const [field, values] of Object.entries(state.filters)) if (values.length) out[field] = [...values];
  if (searchApplies(state.q)) out.q = state.q.trim();
  return out;
}

export function activeFilterCount(filters: ListFilters): number {
  return Object.values(filters).filter((v) => v.length > 0).length;
}

/** Items of one filter list that match its search (case-insensitive, on label or value), capped at 20 unless showAll. */
export function visibleFacetItems(
  items: FacetItem[],
  search: string,
  showAll: boolean,
): { items: FacetItem[]; matching: number; hasMore: boolean } {
  const s = search.trim().toLowerCase();
  const matching = s
    ? items.filter((i) => `${i.label ?? ''} ${facetValueKey(i.value)}`.toLowerCase().includes(s))
    : items;
  const capped = showAll ? matching : matching.slice(0, FILTER_LIST_CAP);
  return { items: capped, matching: matching.length, hasMore: matching.length > FILTER_LIST_CAP };
}

/** Apply is disabled when nothing is selected and no filter is active. */
export function canApply(draft: readonly string[], applied: readonly string[] | undefined): boolean {
  return draft.length > 0 || (applied?.length ?? 0) > 0;
}

export function toggleValue(selected: readonly string[], value: string): string[] {
  return selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
}

export type ListAction =
  | { type: 'page'; page: number }
  | { type: 'perPage'; perPage: number }
  | { type: 'sort'; field: string }
  | { type: 'filter'; field: string; values: string[] }
  | { type: 'filters'; filters: ListFilters }
  | { type: 'q'; q: string }
  | { type: 'toggle'; toggle: string | null };

/** One reducer for every list: everything except a page change goes back to page 1. */
export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'page':
      return { ...state, page: Math.max(1, action.page) };
    case 'perPage':
      return { ...state, perPage: action.perPage, page: 1 };
    case 'sort': {
      const order: SortOrder =
        state.sort.field === action.field && state.sort.order === 'ASC' ? 'DESC' : 'ASC';
      return { ...state, sort: { field: action.field, order }, page: 1 };
    }
    case 'filter': {
      const filters = { ...state.filters };
      if (action.values.length) filters[action.field] = [...action.values];
      else delete filters[action.field];
      return { ...state, filters, page: 1 };
    }
    case 'filters':
      return { ...state, filters: cleanFilters(action.filters), page: 1 };
    case 'q':
      // typing below the threshold after an applied search still resets; the query only changes above it
      return { ...state, q: action.q, page: 1 };
    case 'toggle':
      return { ...state, toggle: action.toggle, page: 1 };
  }
}

function cleanFilters(filters: ListFilters): ListFilters {
  const out: ListFilters = {};
  for (const [k, v] of Object.entries(filters)) if (Array.isArray(v) && v.length) out[k] = v.map(String);
  return out;
}

/** The preference record's content (spec 3 section 3). */
export interface FilterPreference {
  toggleFilter: string | null;
  listFilters: ListFilters;
  simpleFilters: { q?: string };
  calendarFilters: Record<string, [number, number]>;
}

export const preferenceStorageKey = (list: string) => `oncotrf.filters.${list}`;
export const preferenceName = (list: string) => `filters.${list}`;

export function toPreference(state: Pick<ListState, 'filters' | 'q' | 'toggle'>): FilterPreference {
  return {
    toggleFilter: state.toggle ?? null,
    listFilters: cleanFilters(state.filters),
    simpleFilters: searchApplies(state.q) ? { q: state.q.trim() } : {},
    calendarFilters: {},
  };
}

/** Read a stored preference defensively: anything malformed is ignored, never thrown. */
export function fromPreference(raw: unknown): Partial<Pick<ListState, 'filters' | 'q' | 'toggle'>> {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  if (!v || typeof v !== 'object') return {};
  const p = v as Partial<FilterPreference>;
  const out: Partial<Pick<ListState, 'filters' | 'q' | 'toggle'>> = {};
  if (p.listFilters && typeof p.listFilters === 'object' && !Array.isArray(p.listFilters)) {
    const filters: ListFilters = {};
    for (const [k, vals] of Object.entries(p.listFilters)) {
      if (Array.isArray(vals)) {
        const clean = vals.filter((x) => ['string', 'number', 'boolean'].includes(typeof x)).map(String);
        if (clean.length) filters[k] = clean;
      }
    }
    out.filters = filters;
  }
  if (p.simpleFilters && typeof p.simpleFilters.q === 'string') out.q = p.simpleFilters.q;
  if (typeof p.toggleFilter === 'string') out.toggle = p.toggleFilter;
  return out;
}
