/** Which fields a change changed: dotted paths, never values (docs/audit.md "Changes"). Pure. */

/** Server bookkeeping that every write touches: not a change of the record's data. */
export const BOOKKEEPING_FIELDS = ['_id', '__v', 'version', 'updatedOn', 'updatedBy', 'outbox'];

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date) && !isIdLike(v);

// an ObjectId or a Buffer compares by its text
const isIdLike = (v: object) => typeof (v as { toHexString?: unknown }).toHexString === 'function';

/** The value without bookkeeping at any depth (an entry of an array keeps its own updatedOn, version, ...). */
function strip(v: unknown, ignore: Set<string>): unknown {
  if (Array.isArray(v)) return v.map((x) => strip(x, ignore));
  if (!isPlainObject(v)) return v ?? null;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!ignore.has(k) && x !== undefined) out[k] = strip(x, ignore);
  return out;
}

/**
 * The paths whose values differ between `before` and `after`, down to `depth` levels (`patient.firstName`);
 * an array, or anything deeper, is one path. Sorted; bookkeeping fields (at any depth: an array entry's own
 * updatedOn or version) left out.
 */
export function changedPaths(
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  opts: { depth?: number; ignore?: string[] } = {},
): string[] {
  const ignore = new Set(opts.ignore ?? BOOKKEEPING_FIELDS);
  const same = (a: unknown, b: unknown) =>
    JSON.stringify(strip(a, ignore)) === JSON.stringify(strip(b, ignore));
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, prefix: string, level: number) => {
    if (level < (opts.depth ?? 3) && (isPlainObject(a) || isPlainObject(b))) {
      const ao = isPlainObject(a) ? a : {};
      const bo = isPlainObject(b) ? b : {};
      for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
        if (ignore.has(key)) continue;
        walk(ao[key], bo[key], prefix ? `${prefix}.${key}` : key, level + 1);
      }
      return;
    }
    if (!same(a, b)) out.push(prefix);
  };
  walk(before ?? {}, after, '', 0);
  return out.sort();
}

/**
 * The paths an update names (`$set`, `$unset`, `$push`, `$inc`, ... keys, or a replacement's fields), without
 * bookkeeping: what a change computed from a state read before its transaction may report (a field the update
 * does not name was not changed by it, whatever else changed it meanwhile). Pure.
 */
export function updatedPaths(update: Record<string, unknown>): string[] {
  const paths = new Set<string>();
  for (const [k, v] of Object.entries(update)) {
    if (k.startsWith('$')) {
      if (v && typeof v === 'object') for (const p of Object.keys(v)) paths.add(p);
    } else paths.add(k);
  }
  return [...paths].filter((p) => !BOOKKEEPING_FIELDS.includes(p.split('.')[0]));
}

/** `changed` kept to those under (or above) a path the update names. */
export function withinUpdate(changed: string[], named: string[]): string[] {
  const under = (a: string, b: string) => a === b || a.startsWith(`${b}.`);
  return changed.filter((c) => named.some((n) => under(c, n) || under(n, c)));
}
