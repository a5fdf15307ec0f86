import { describe, expect, it } from 'vitest';
import {
  canApply,
  fromPreference,
  listReducer,
  serverFilter,
  toPreference,
  toggleValue,
  visibleFacetItems,
  type ListState,
} from './listState';

const base: ListState = {
  page: 4,
  perPage: 15,
  sort: { field: 'updatedOn', order: 'DESC' },
  filters: { status: ['ACTIVE'] },
  q: '',
};

describe('list state', () => {
  it('search applies only above 2 characters', () => {
    expect(serverFilter({ filters: {}, q: 'ab' })).toEqual({});
    expect(serverFilter({ filters: {}, q: '  ab ' })).toEqual({});
    expect(serverFilter({ filters: {}, q: ' abc ' })).toEqual({ q: 'abc' });
  });

  it('sends chosen lists as arrays and drops empty ones', () => {
    expect(
      serverFilter({ filters: { status: ['ACTIVE', 'LOCKED_OUT'], role: [] }, q: '' }, { deleted: false }),
    ).toEqual({ deleted: false, status: ['ACTIVE', 'LOCKED_OUT'] });
  });

  it('filters, search, sort and page size go back to page 1; a page change does not', () => {
    expect(listReducer(base, { type: 'filter', field: 'role', values: ['ROLE_NPI'] })).toMatchObject({
      page: 1,
      filters: { status: ['ACTIVE'], role: ['ROLE_NPI'] },
    });
    expect(listReducer(base, { type: 'filter', field: 'status', values: [] }).filters).toEqual({});
    expect(listReducer(base, { type: 'q', q: 'smith' }).page).toBe(1);
    expect(listReducer(base, { type: 'perPage', perPage: 30 })).toMatchObject({ page: 1, perPage: 30 });
    expect(listReducer(base, { type: 'page', page: 2 }).page).toBe(2);
  });

  it('sorting a column toggles ascending and descending', () => {
    const a = listReducer(base, { type: 'sort', field: 'lastName' });
    expect(a.sort).toEqual({ field: 'lastName', order: 'ASC' });
    expect(listReducer(a, { type: 'sort', field: 'lastName' }).sort).toEqual({
      field: 'lastName',
      order: 'DESC',
    });
  });

  it('filter lists show 20 items until Show All, and search inside the list', () => {
    const items = Array.from({ length: 45 }, (_, i) => ({ value: `Account ${i}`, count: i }));
    const first = visibleFacetItems(items, '', false);
    expect(first.items).toHaveLength(20);
    expect(first).toMatchObject({ matching: 45, hasMore: true });
    expect(visibleFacetItems(items, '', true).items).toHaveLength(45);
    const found = visibleFacetItems(items, 'account 4', false);
    expect(found.items.map((i) => i.value)).toEqual([
      'Account 4',
      'Account 40',
      'Account 41',
      'Account 42',
      'Account 43',
      'Account 44',
    ]);
    expect(
      visibleFacetItems([{ value: 'ROLE_NPI', label: 'NPI Provider', count: 1 }], 'provider', false).items,
    ).toHaveLength(1);
  });

  it('Apply is disabled when nothing is selected and no filter is active', () => {
    expect(canApply([], [])).toBe(false);
    expect(canApply([], undefined)).toBe(false);
    expect(canApply(['A'], [])).toBe(true);
    expect(canApply([], ['A'])).toBe(true);
    expect(toggleValue(['A', 'B'], 'A')).toEqual(['B']);
    expect(toggleValue(['A'], 'B')).toEqual(['A', 'B']);
  });

  it('the preference record round-trips and ignores malformed content', () => {
    const pref = toPreference({ filters: { status: ['ACTIVE'], role: [] }, q: 'smith', toggle: null });
    expect(pref).toEqual({
      toggleFilter: null,
      listFilters: { status: ['ACTIVE'] },
      simpleFilters: { q: 'smith' },
      calendarFilters: {},
    });
    expect(fromPreference(JSON.stringify(pref))).toEqual({ filters: { status: ['ACTIVE'] }, q: 'smith' });
    expect(fromPreference('{not json')).toEqual({});
    expect(fromPreference({ listFilters: { status: 'ACTIVE', role: [{ $ne: 1 }, 'ROLE_NPI'] } })).toEqual({
      filters: { role: ['ROLE_NPI'] },
    });
    expect(fromPreference(null)).toEqual({});
  });
});
