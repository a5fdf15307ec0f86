import type { z } from 'zod';
import type { Permission } from '@onco/domain';
import { badRequest, forbidden } from './errors';

/**
 * One typed list query for both dialects the product speaks:
 *  - the spec's dialect: page (zero-based), perPage|size, sort ("field,DESC" | "field:desc" | "-field") or
 *    sortValue+sortOrder, filter (JSON object whose values are eq(x), in(a, b), !in(x), between(s, e) or plain),
 *    q, facets, distinct; reply {content, totalElements, facets?}.
 *  - ra-data-simple-rest: sort=["field","ASC"], range=[start,end], filter={"field": value | [values]};
 *    reply is the array with a Content-Range header.
 * Values are coerced by the resource's declared field types, so no client value ever reaches MongoDB as an
 * operator: an object value, an unknown field or a bad value is a 400 naming the field.
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'id';

export interface FieldDef {
  type: FieldType;
  /** document path; defaults to the field name */
  path?: string;
  /** further paths the field is found at: a filter matches a document holding the value at any of them */
  alsoAt?: string[];
  filter?: boolean;
  sort?: boolean;
  /** only a user holding it sees the field: for anyone else it is withheld (see `visibleTo`) */
  permission?: Permission;
}

export interface FacetDef {
  name: string;
  /** the filter field this facet narrows (its own filter is not applied when counting it) */
  field: string;
  /** path to group by; defaults to the field's path */
  path?: string;
  /** array path to $unwind before grouping (e.g. "testOrders") */
  unwind?: string;
}

export interface ListResource {
  name: string;
  fields: Record<string, FieldDef>;
  /** paths searched by q (case-insensitive substring), only when q is longer than 2 characters */
  search: string[];
  facets?: FacetDef[];
  defaultSort: { field: string; order: 'asc' | 'desc' };
  defaultPerPage?: number;
  maxPerPage?: number;
  /** the field holding the soft-delete flag; rows with it true are excluded unless asked for */
  deletedField?: string;
  /** fields withheld from the user this resource was narrowed for (`visibleTo`), with the permission each needs */
  withheld?: Record<string, Permission>;
}

/**
 * The resource as one user may query it: a field bound to a permission the user lacks is withheld. Filtering or
 * sorting by it is refused (403, naming the permission), `q` does not search it (a match would disclose it) and
 * the list routes leave it out of every row.
 */
export function visibleTo(resource: ListResource, granted: readonly string[]): ListResource {
  const withheld: Record<string, Permission> = {};
  for (const [name, def] of Object.entries(resource.fields))
    if (def.permission && !granted.includes(def.permission)) withheld[name] = def.permission;
  if (!Object.keys(withheld).length) return resource;
  const paths = new Set(Object.keys(withheld).map((n) => resource.fields[n]!.path ?? n));
  const fields = Object.fromEntries(Object.entries(resource.fields).filter(([n]) => !withheld[n]));
  return { ...resource, fields, search: resource.search.filter((p) => !paths.has(p)), withheld };
}

export type FilterOp = 'eq' | 'in' | 'nin' | 'between';
export interface Filter {
  field: string;
  path: string;
  /** the field's further paths (FieldDef.alsoAt) */
  alsoAt?: string[];
  op: FilterOp;
  values: unknown[];
}

export interface ListQuery {
  dialect: 'spec' | 'simple-rest';
  page: number;
  perPage: number;
  sort: { field: string; path: string; order: 'asc' | 'desc' };
  filters: Filter[];
  q?: string;
  includeDeleted: boolean;
  facets: string[];
  distinct: boolean;
}

export const SEARCH_MIN_LENGTH = 3;

/**
 * A query parameter holding JSON (a list's filter, range and sort; an export's mapping): its value, or a 400
 * naming the parameter and what it expects. With `schema`, the value must also have that shape.
 */
export function jsonQueryParam<T = unknown>(
  name: string,
  raw: string,
  expected: string,
  schema?: z.ZodType<T>,
): T {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`Invalid ${name}: not valid JSON (expected ${expected})`, { param: name });
  }
  if (!schema) return value as T;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(`Invalid ${name}: expected ${expected}`, { param: name });
  return parsed.data;
}

export const SEARCH_TEXT_CONTROL_CHARACTER =
  'The search text contains a control character (such as NUL, a tab or a line break), which cannot be ' +
  'searched for: remove it and search again.';

/** Whether text holds a C0 control character or DEL (NUL above all: BSON refuses it in a regular expression). */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * The one rule for text a user searches by (a list's `q`, a picker's search): no control characters, which no
 * stored name holds and a NUL of which the store cannot even take (a 500 before). A 400 naming `field`.
 */
export function searchableText(text: string, field = 'q'): string {
  if (hasControlCharacter(text)) throw badRequest(SEARCH_TEXT_CONTROL_CHARACTER, { field });
  return text;
}

/** Case-insensitive "contains" for search text: the text a literal (never an operator), checked by searchableText. */
export function containsPattern(text: string, field = 'q'): RegExp {
  return new RegExp(escapeRegex(searchableText(text, field)), 'i');
}

function int(name: string, raw: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = typeof raw === 'number' ? raw : Number(String(raw));
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`Invalid ${name}: expected an integer from ${min} to ${max}`, { param: name });
  }
  return n;
}

function splitArgs(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

const OP_FORMS: Array<[RegExp, FilterOp]> = [
  [/^!in\((.*)\)$/s, 'nin'],
  [/^in\((.*)\)$/s, 'in'],
  [/^eq\((.*)\)$/s, 'eq'],
  [/^between\((.*)\)$/s, 'between'],
];

function coerce(field: string, def: FieldDef, v: unknown): unknown {
  if (v === null) return null;
  if (typeof v === 'object') throw badRequest(`Invalid filter value for ${field}`, { field });
  const s = String(v);
  switch (def.type) {
    case 'string':
      if (hasControlCharacter(s))
        throw badRequest(
          `Invalid filter value for ${field}: it contains a control character (such as NUL); remove it`,
          { field },
        );
      return s;
    case 'id':
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) throw badRequest(`Invalid filter value for ${field}`, { field });
      return s;
    case 'number': {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n))
        throw badRequest(`Invalid filter value for ${field}: expected a number`, { field });
      return n;
    }
    case 'boolean':
      if (s === 'true') return true;
      if (s === 'false') return false;
      throw badRequest(`Invalid filter value for ${field}: expected true or false`, { field });
    case 'date': {
      const n = Number(s);
      const d = Number.isFinite(n) && s.trim() !== '' ? new Date(n) : new Date(s);
      if (Number.isNaN(d.getTime()))
        throw badRequest(`Invalid filter value for ${field}: expected epoch milliseconds`, { field });
      return d;
    }
  }
}

function parseFilterValue(field: string, def: FieldDef, raw: unknown): Filter {
  const f = parseFilterOp(field, def, raw);
  return def.alsoAt?.length ? { ...f, alsoAt: def.alsoAt } : f;
}

function parseFilterOp(field: string, def: FieldDef, raw: unknown): Filter {
  const path = def.path ?? field;
  if (Array.isArray(raw)) return { field, path, op: 'in', values: raw.map((v) => coerce(field, def, v)) };
  if (typeof raw === 'string') {
    for (const [re, op] of OP_FORMS) {
      const m = re.exec(raw.trim());
      if (!m) continue;
      const args = splitArgs(m[1]);
      if (op === 'between') {
        if (args.length !== 2)
          throw badRequest(`Invalid filter for ${field}: between needs a start and an end`, { field });
        return { field, path, op, values: args.map((a) => coerce(field, def, a)) };
      }
      if (op === 'eq') return { field, path, op, values: [coerce(field, def, m[1].trim())] };
      return { field, path, op, values: args.map((a) => coerce(field, def, a)) };
    }
  }
  return { field, path, op: 'eq', values: [coerce(field, def, raw)] };
}

/** Every resource can be sorted and filtered by `id` (ra-data-simple-rest sorts by id and asks getMany by id). */
const ID_FIELD: FieldDef = { type: 'id', path: '_id', filter: true, sort: true };
function fieldDef(resource: ListResource, name: string): FieldDef | undefined {
  const needs = resource.withheld?.[name];
  if (needs) throw forbidden(`Only users with ${needs} may filter or sort by ${name}.`);
  return name === 'id'
    ? { ...ID_FIELD, ...resource.fields.id, filter: true, sort: true }
    : resource.fields[name];
}

function parseSort(resource: ListResource, raw: unknown, orderRaw?: unknown): ListQuery['sort'] {
  let field: string | undefined;
  let order: string | undefined;
  if (Array.isArray(raw)) {
    [field, order] = raw.map(String);
  } else if (typeof raw === 'string' && raw.length > 0) {
    const s = raw.trim();
    if (s.startsWith('-')) [field, order] = [s.slice(1), 'desc'];
    else [field, order] = s.split(/[,:\s]/).filter(Boolean);
  }
  if (orderRaw !== undefined && orderRaw !== '') order = String(orderRaw);
  field = field ?? resource.defaultSort.field;
  const o = (order ?? resource.defaultSort.order).toLowerCase();
  if (o !== 'asc' && o !== 'desc') throw badRequest(`Invalid sort order: ${order}`, { param: 'sort' });
  const def = fieldDef(resource, field);
  if (!def || !def.sort) throw badRequest(`Sorting by ${field} is not supported`, { field });
  return { field, path: def.path ?? field, order: o };
}

/** Parse the raw querystring (either dialect) into one ListQuery, checked against the resource. */
export function parseListQuery(resource: ListResource, qs: Record<string, unknown>): ListQuery {
  const simple = qs.range !== undefined || (typeof qs.sort === 'string' && qs.sort.trim().startsWith('['));
  const maxPerPage = resource.maxPerPage ?? 1000;
  let page = 0;
  let perPage = resource.defaultPerPage ?? 15;
  let sort: ListQuery['sort'];

  if (simple) {
    if (qs.range !== undefined) {
      const r = jsonQueryParam('range', String(qs.range), 'a JSON list [start, end], e.g. [0,24]');
      if (!Array.isArray(r) || r.length !== 2)
        throw badRequest('Invalid range: expected [start, end]', { param: 'range' });
      const start = int('range', r[0], 0);
      const end = int('range', r[1], start);
      perPage = Math.min(end - start + 1, maxPerPage);
      page = Math.floor(start / perPage);
    }
    const sortJson = qs.sort
      ? jsonQueryParam('sort', String(qs.sort), 'a JSON list ["field","ASC"]')
      : undefined;
    sort = parseSort(resource, sortJson);
  } else {
    if (qs.page !== undefined) page = int('page', qs.page, 0);
    const size = qs.perPage ?? qs.size;
    if (size !== undefined) perPage = int(qs.perPage !== undefined ? 'perPage' : 'size', size, 1, maxPerPage);
    sort = parseSort(resource, qs.sortValue ?? qs.sort, qs.sortOrder);
  }

  let filterObj: Record<string, unknown> = {};
  if (qs.filter !== undefined && qs.filter !== '') {
    const f =
      typeof qs.filter === 'string'
        ? jsonQueryParam('filter', qs.filter, 'a JSON object, e.g. {"status":"eq(SUBMITTED)"}')
        : qs.filter;
    if (!f || typeof f !== 'object' || Array.isArray(f))
      throw badRequest('Invalid filter: expected a JSON object', { param: 'filter' });
    filterObj = f as Record<string, unknown>;
  }
  let q: string | undefined = qs.q !== undefined ? String(qs.q) : undefined;
  let includeDeleted = false;
  const filters: Filter[] = [];
  for (const [key, raw] of Object.entries(filterObj)) {
    if (key === 'q') {
      if (typeof raw !== 'string') throw badRequest('Invalid filter value for q', { field: 'q' });
      q = raw;
      continue;
    }
    if (resource.deletedField && key === resource.deletedField) {
      // deleted=true (or "eq(true)", "in(true,false)") asks for deleted rows too; false is the default.
      const v = typeof raw === 'string' ? raw.replace(/^(eq|in)\((.*)\)$/, '$2') : raw;
      if (typeof v === 'object' && v !== null)
        throw badRequest(`Invalid filter value for ${key}`, { field: key });
      includeDeleted = String(v)
        .split(',')
        .map((x) => x.trim())
        .includes('true');
      if (String(v) === 'true') filters.push({ field: key, path: key, op: 'eq', values: [true] });
      continue;
    }
    const def = fieldDef(resource, key);
    if (!def || !def.filter) throw badRequest(`Filtering by ${key} is not supported`, { field: key });
    if (raw === undefined || raw === '') continue;
    filters.push(parseFilterValue(key, def, raw));
  }
  q = q === undefined ? undefined : searchableText(q.trim());
  if (q !== undefined && q.length < SEARCH_MIN_LENGTH) q = undefined;

  let facets: string[] = [];
  if (qs.facets !== undefined && qs.facets !== '' && qs.facets !== 'false') {
    const known = (resource.facets ?? []).filter((f) => !resource.withheld?.[f.field]).map((f) => f.name);
    facets = qs.facets === 'true' || qs.facets === true ? known : splitArgs(String(qs.facets));
    for (const name of facets)
      if (!known.includes(name)) throw badRequest(`Unknown facet: ${name}`, { facet: name });
  }

  return {
    dialect: simple ? 'simple-rest' : 'spec',
    page,
    perPage,
    sort,
    filters,
    q,
    includeDeleted,
    facets,
    distinct: qs.distinct === 'true' || qs.distinct === true,
  };
}

/** A text as a literal in a regular expression (search text never becomes an operator). */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function filterToMongo(f: Filter): Record<string, unknown> {
  if (f.alsoAt?.length) {
    const each = [f.path, ...f.alsoAt].map((path) => filterToMongo({ ...f, path, alsoAt: undefined }));
    // none of the values: at none of the paths; any other filter: at any of them
    return f.op === 'nin' ? { $and: each } : { $or: each };
  }
  switch (f.op) {
    case 'eq':
      return { [f.path]: f.values[0] };
    case 'in':
      return { [f.path]: { $in: f.values } };
    case 'nin':
      // none of the values, also through arrays of objects (store.int.test.ts proves DocumentDB agrees)
      return { [f.path]: { $nin: f.values } };
    case 'between':
      return { [f.path]: { $gte: f.values[0], $lte: f.values[1] } };
  }
}

/**
 * Build the MongoDB match for a query: the data scope (always), the soft-delete rule, the filters (minus the
 * one named in `except`, used for facet counts) and the search text.
 */
export function buildMatch(
  resource: ListResource,
  query: ListQuery,
  scope: Record<string, unknown>,
  except?: string,
): Record<string, unknown> {
  const and: Record<string, unknown>[] = [];
  if (Object.keys(scope).length) and.push(scope);
  if (resource.deletedField && !query.includeDeleted) and.push({ [resource.deletedField]: { $ne: true } });
  for (const f of query.filters) if (f.field !== except) and.push(filterToMongo(f));
  if (query.q && resource.search.length) {
    const re = containsPattern(query.q);
    and.push({ $or: resource.search.map((p) => ({ [p]: re })) });
  }
  if (and.length === 0) return {};
  if (and.length === 1) return and[0];
  return { $and: and };
}

export interface Facet {
  name: string;
  items: Array<{ value: unknown; count: number }>;
}

export interface ListResult<T> {
  content: T[];
  totalElements: number;
  facets?: Facet[];
}
