import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  buildMatch,
  containsPattern,
  jsonQueryParam,
  parseListQuery,
  SEARCH_TEXT_CONTROL_CHARACTER,
  visibleTo,
  type ListResource,
} from './list-query';

const orders: ListResource = {
  name: 'orders',
  fields: {
    status: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
    count: { type: 'number', filter: true },
    archived: { type: 'boolean', filter: true },
  },
  search: ['patient.name', 'testRequisitionId'],
  facets: [{ name: 'status_facet', field: 'status' }],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  deletedField: 'deleted',
};

describe('the spec dialect', () => {
  it('reads page, perPage, sort and each filter form', () => {
    const q = parseListQuery(orders, {
      page: '2',
      perPage: '20',
      sort: 'createdOn,ASC',
      filter: JSON.stringify({
        status: 'in(SUBMITTED, DRAFT)',
        accountId: '!in(a1)',
        createdOn: 'between(1700000000000, 1800000000000)',
        count: 'eq(3)',
        q: 'smith',
      }),
      facets: 'status_facet',
    });
    expect(q.dialect).toBe('spec');
    expect(q.page).toBe(2);
    expect(q.perPage).toBe(20);
    expect(q.sort).toEqual({ field: 'createdOn', path: 'createdOn', order: 'asc' });
    expect(q.q).toBe('smith');
    expect(q.facets).toEqual(['status_facet']);
    const m = buildMatch(orders, q, {});
    expect(m).toEqual({
      $and: [
        { deleted: { $ne: true } },
        { status: { $in: ['SUBMITTED', 'DRAFT'] } },
        { 'account.id': { $nin: ['a1'] } },
        { createdOn: { $gte: new Date(1700000000000), $lte: new Date(1800000000000) } },
        { count: 3 },
        { $or: [{ 'patient.name': /smith/i }, { testRequisitionId: /smith/i }] },
      ],
    });
  });

  it('accepts size, sortValue and sortOrder, and the defaults', () => {
    const q = parseListQuery(orders, { size: '50', sortValue: 'status', sortOrder: 'DESC' });
    expect(q.perPage).toBe(50);
    expect(q.sort.order).toBe('desc');
    const d = parseListQuery(orders, {});
    expect(d).toMatchObject({
      page: 0,
      perPage: 15,
      sort: { field: 'updatedOn', order: 'desc' },
      includeDeleted: false,
    });
  });

  it('applies free text only above 2 characters and escapes it', () => {
    expect(parseListQuery(orders, { q: 'ab' }).q).toBeUndefined();
    const q = parseListQuery(orders, { q: 'a.*(' });
    const m = buildMatch(orders, q, {}) as any;
    expect(m.$and[1].$or[0]['patient.name'].source).toBe('a\\.\\*\\(');
  });

  it('refuses search text with a control character, NUL above all (the store cannot search for it)', () => {
    for (const text of ['smi\u0000th', 'smi\tth', 'smi\nth', 'smi\u007fth'])
      for (const qs of [{ q: text }, { filter: JSON.stringify({ q: text }) }])
        expect(() => parseListQuery(orders, qs)).toThrow(SEARCH_TEXT_CONTROL_CHARACTER);
    // the ends are trimmed first (a pasted line break), and other characters are searched for as they are
    expect(parseListQuery(orders, { q: 'smith\n' }).q).toBe('smith');
    expect(parseListQuery(orders, { q: 'Müller–Ødegård' }).q).toBe('Müller–Ødegård');
    expect(() => containsPattern('a\u0000b', 'text')).toThrow(SEARCH_TEXT_CONTROL_CHARACTER);
    expect(containsPattern('a.b').test('xA.By')).toBe(true);
  });

  it('reads a JSON query parameter, or refuses it naming the parameter and what it expects', () => {
    const pairs = z.array(z.tuple([z.string(), z.string()])).min(1);
    expect(jsonQueryParam('mapping', '[["a","A"]]', 'pairs', pairs)).toEqual([['a', 'A']]);
    for (const [raw, message] of [
      ['{', 'Invalid mapping: not valid JSON (expected pairs)'],
      ['[["a"]]', 'Invalid mapping: expected pairs'],
      ['"x"', 'Invalid mapping: expected pairs'],
    ])
      expect(() => jsonQueryParam('mapping', raw, 'pairs', pairs)).toThrow(message);
    let refusal: unknown;
    try {
      jsonQueryParam('mapping', '{', 'pairs');
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toMatchObject({ statusCode: 400, details: { param: 'mapping' } });
  });

  it('refuses a string filter value with a control character, naming the field', () => {
    for (const status of ['DRA\u0000FT', 'in(A\u0000B,C)', '!in(A\u0001B)', ['A', 'B\u0000']])
      expect(() => parseListQuery(orders, { filter: JSON.stringify({ status }) })).toThrow(
        'Invalid filter value for status: it contains a control character (such as NUL); remove it',
      );
  });

  it('includes deleted rows only when asked', () => {
    expect(parseListQuery(orders, { filter: '{"deleted":"true"}' }).includeDeleted).toBe(true);
    expect(parseListQuery(orders, { filter: '{"deleted":false}' }).includeDeleted).toBe(false);
  });

  it('always applies the data scope', () => {
    const q = parseListQuery(orders, {});
    expect(buildMatch(orders, q, { 'account.id': { $in: ['A'] } })).toEqual({
      $and: [{ 'account.id': { $in: ['A'] } }, { deleted: { $ne: true } }],
    });
  });
});

describe('ra-data-simple-rest dialect', () => {
  it('reads sort, range and a plain filter (arrays are in)', () => {
    const q = parseListQuery(orders, {
      sort: '["createdOn","ASC"]',
      range: '[20,29]',
      filter: '{"status":["SUBMITTED"],"archived":false}',
    });
    expect(q.dialect).toBe('simple-rest');
    expect(q.page).toBe(2);
    expect(q.perPage).toBe(10);
    expect(q.sort.field).toBe('createdOn');
    expect(q.filters).toEqual([
      { field: 'status', path: 'status', op: 'in', values: ['SUBMITTED'] },
      { field: 'archived', path: 'archived', op: 'eq', values: [false] },
    ]);
  });
});

describe('id', () => {
  it('sorts and filters by id on every resource (react-admin defaults)', () => {
    const q = parseListQuery(orders, { sort: '["id","ASC"]', range: '[0,9]', filter: '{"id":["a","b"]}' });
    expect(q.sort).toEqual({ field: 'id', path: '_id', order: 'asc' });
    expect(q.filters).toEqual([{ field: 'id', path: '_id', op: 'in', values: ['a', 'b'] }]);
  });
});

describe('bad input is a 400 naming what is wrong', () => {
  const bad = (qs: Record<string, unknown>) => {
    try {
      parseListQuery(orders, qs);
    } catch (e: any) {
      return { status: e.statusCode, message: e.message };
    }
    return null;
  };
  it('refuses unknown filter and sort fields and facets', () => {
    expect(bad({ filter: '{"password":"x"}' })).toEqual({
      status: 400,
      message: 'Filtering by password is not supported',
    });
    expect(bad({ sort: 'secret,ASC' })).toEqual({
      status: 400,
      message: 'Sorting by secret is not supported',
    });
    expect(bad({ facets: 'nope_facet' })).toEqual({ status: 400, message: 'Unknown facet: nope_facet' });
    expect(bad({ filter: 'not json' })?.message).toBe(
      'Invalid filter: not valid JSON (expected a JSON object, e.g. {"status":"eq(SUBMITTED)"})',
    );
    expect(bad({ range: '[0,' })?.message).toBe(
      'Invalid range: not valid JSON (expected a JSON list [start, end], e.g. [0,24])',
    );
    expect(bad({ range: '[0,9]', sort: '["id"' })?.message).toBe(
      'Invalid sort: not valid JSON (expected a JSON list ["field","ASC"])',
    );
    expect(bad({ page: '-1' })?.status).toBe(400);
    expect(bad({ perPage: '100000' })?.status).toBe(400);
    expect(bad({ filter: '{"createdOn":"between(1)"}' })?.message).toBe(
      'Invalid filter for createdOn: between needs a start and an end',
    );
    expect(bad({ filter: '{"count":"eq(abc)"}' })?.message).toBe(
      'Invalid filter value for count: expected a number',
    );
  });

  it('never lets a client value become a MongoDB operator', () => {
    expect(bad({ filter: '{"status":{"$ne":null}}' })).toEqual({
      status: 400,
      message: 'Invalid filter value for status',
    });
    expect(bad({ filter: '{"$where":"sleep(1000)"}' })?.message).toBe('Filtering by $where is not supported');
    expect(bad({ filter: '{"$or":[{"status":"x"}]}' })?.message).toBe('Filtering by $or is not supported');
    expect(bad({ filter: '{"status":[{"$gt":""}]}' })).toEqual({
      status: 400,
      message: 'Invalid filter value for status',
    });
    expect(bad({ filter: '{"accountId":"in($ne)"}' })).toEqual({
      status: 400,
      message: 'Invalid filter value for accountId',
    });
    // an operator-looking string is only ever a literal value
    const q = parseListQuery(orders, { filter: '{"status":"$ne"}' });
    expect(buildMatch(orders, q, {})).toEqual({ $and: [{ deleted: { $ne: true } }, { status: '$ne' }] });
  });
});

describe('a field bound to a permission (visibleTo)', () => {
  const tests: ListResource = {
    name: 'tests',
    fields: {
      status: { type: 'string', filter: true, sort: true },
      dueOn: { type: 'date', filter: true, sort: true, permission: 'VIEW_TESTORDER_DUEDATE' },
      lims: {
        type: 'string',
        path: 'limsProjectId',
        filter: true,
        sort: true,
        permission: 'VIEW_LIMS_INFORMATION',
      },
    },
    search: ['testId', 'limsProjectId'],
    facets: [{ name: 'lims_facet', field: 'lims' }],
    defaultSort: { field: 'status', order: 'asc' },
  };

  it('is the same resource for a user holding the permissions', () => {
    expect(visibleTo(tests, ['VIEW_TESTORDER_DUEDATE', 'VIEW_LIMS_INFORMATION'])).toBe(tests);
  });

  it('refuses filtering, sorting and faceting by a withheld field, and q does not search it', () => {
    const seen = visibleTo(tests, ['VIEW_TESTORDER_DUEDATE']);
    expect(seen.withheld).toEqual({ lims: 'VIEW_LIMS_INFORMATION' });
    expect(seen.search).toEqual(['testId']);
    expect(() => parseListQuery(seen, { filter: '{"lims":"LP-1"}' })).toThrow(
      'Only users with VIEW_LIMS_INFORMATION may filter or sort by lims.',
    );
    expect(() => parseListQuery(seen, { sort: 'lims,ASC' })).toThrow(/VIEW_LIMS_INFORMATION/);
    expect(() => parseListQuery(seen, { facets: 'lims_facet' })).toThrow('Unknown facet: lims_facet');
    expect(parseListQuery(seen, { facets: 'true' }).facets).toEqual([]);
    expect(parseListQuery(seen, { sort: 'dueOn,DESC' }).sort.field).toBe('dueOn');
  });
});

describe('a field found at more than one path (alsoAt)', () => {
  const entries: ListResource = {
    name: 'entries',
    fields: { patientId: { type: 'id', path: 'what.patientId', alsoAt: ['what.patientIds'], filter: true } },
    search: [],
    defaultSort: { field: 'id', order: 'desc' },
  };
  const match = (filter: Record<string, unknown>) =>
    buildMatch(entries, parseListQuery(entries, { filter: JSON.stringify(filter) }), {});
  it('matches the value at any of its paths; none of the values at none of them', () => {
    expect(match({ patientId: 'p1' })).toEqual({
      $or: [{ 'what.patientId': 'p1' }, { 'what.patientIds': 'p1' }],
    });
    expect(match({ patientId: 'in(p1, p2)' })).toEqual({
      $or: [{ 'what.patientId': { $in: ['p1', 'p2'] } }, { 'what.patientIds': { $in: ['p1', 'p2'] } }],
    });
    expect(match({ patientId: '!in(p1)' })).toEqual({
      $and: [{ 'what.patientId': { $nin: ['p1'] } }, { 'what.patientIds': { $nin: ['p1'] } }],
    });
  });
});
