import type { FastifyInstance } from 'fastify';
import type { ClientSession, Connection } from 'mongoose';
import { z } from 'zod';
import { MSG } from '@onco/domain';
import { requireUser, type SessionUser } from './auth';
import type { RoutePermission } from './crud-routes';
import { AppError, badRequest } from './errors';
import { errorReplies } from './routes';
import { inTransaction } from './transaction';

/**
 * Bulk create and bulk update of the generic resources (spec 3 section 7.4: "bulk create POST to bulk, bulk
 * update PUT to bulk"), all or nothing (docs/decisions.md "Bulk create and update"): every row is checked as the
 * single call checks it; when any row fails nothing is written and the reply names each failing row by its index;
 * otherwise every row is written in ONE transaction (`inTransaction`), so a failure midway leaves nothing.
 */

/** The most rows one bulk call takes (as the billing bulk submit: a page of a list at its largest, and then some). */
export const BULK_MAX_ROWS = 500;

/** How many rows' checks (each a read or two) run at once. */
const CHECKS_AT_ONCE = 20;

/** One refused row of a bulk call: its index in the request, and the status, code and message the single call gives. */
export interface BulkRowError {
  index: number;
  status: number;
  code: string;
  message: string;
  /** field (dotted path) -> what is wrong with it, when the refusal names fields */
  fields?: Record<string, string>;
}

/** The fields an AppError names: `details.errors` (fieldErrors), `details.fields`, or one `details.field`. */
function fieldsOf(err: AppError): Record<string, string> | undefined {
  const d = err.details ?? {};
  for (const key of ['errors', 'fields'] as const) {
    const v = d[key];
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const out: Record<string, string> = {};
      for (const [k, m] of Object.entries(v as Record<string, unknown>)) out[k] = String(m);
      if (Object.keys(out).length) return out;
    }
  }
  return typeof d.field === 'string' ? { [d.field]: err.message } : undefined;
}

/** The row error of what a row's check threw: an AppError keeps its status, code, message and fields. */
export function rowError(index: number, err: unknown): BulkRowError {
  if (!(err instanceof AppError)) throw err;
  const fields = fieldsOf(err);
  return {
    index,
    status: err.statusCode,
    code: err.code,
    message: err.message,
    ...(fields ? { fields } : {}),
  };
}

/** The row error of a row its schema refused: each field (dotted path) with zod's message. */
export function invalidRow(index: number, issues: z.ZodError['issues']): BulkRowError {
  const fields: Record<string, string> = {};
  for (const i of issues) fields[i.path.map(String).join('.') || 'row'] ??= i.message;
  const message = Object.entries(fields)
    .map(([f, m]) => `${f}: ${m}`)
    .join('; ');
  return { index, status: 400, code: 'BAD_REQUEST', message: `Invalid row: ${message}`, fields };
}

/**
 * The refusal of a whole bulk call (nothing written): 409 when every failing row is a record changed since the
 * client read it (reload those and send again), else 400; `details.rows` has every failing row in request order.
 */
export function bulkRefusal(rows: BulkRowError[], total: number): AppError {
  const sorted = [...rows].sort((a, b) => a.index - b.index);
  const indexes = sorted.map((r) => r.index).join(', ');
  if (sorted.every((r) => r.status === 409))
    return new AppError(
      409,
      'CONFLICT',
      `${sorted.length} of ${total} rows were changed by someone else since they were read (index ${indexes}); ` +
        'nothing was saved. Reload them and try again.',
      { rows: sorted },
    );
  return badRequest(`${sorted.length} of ${total} rows were refused (index ${indexes}); nothing was saved.`, {
    rows: sorted,
  });
}

/** The body of a bulk call: an array of 1 to BULK_MAX_ROWS rows (400 saying what is wrong otherwise). */
export function bulkRows(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw badRequest('Invalid body: expected an array of rows', { field: 'body' });
  if (body.length === 0)
    throw badRequest(`Invalid body: no rows; a bulk call takes 1 to ${BULK_MAX_ROWS} rows`, {
      field: 'body',
    });
  if (body.length > BULK_MAX_ROWS)
    throw badRequest(`Too many rows: ${body.length}; a bulk call takes at most ${BULK_MAX_ROWS} rows`, {
      field: 'body',
      limit: BULK_MAX_ROWS,
      count: body.length,
    });
  return body;
}

export interface BulkOptions<R, P, T> {
  /** the request's body (checked here: an array of 1 to BULK_MAX_ROWS rows) */
  body: unknown;
  /** one row's schema (the single call's body, with `id` for an update) */
  schema: z.ZodType<R>;
  /** rows with the same key change the same record: a second one is refused (an update's id) */
  key?: (row: R) => string;
  /** one row's checks as the single call makes them (its 400, 403, 404, 409 is the row's error); what to write */
  check: (row: R, index: number) => Promise<P>;
  /** the store the rows are written to, in one transaction */
  conn: Connection;
  /**
   * Writes every checked row, in order, through `session` (it may run again after a write conflict: no other side
   * effects). Answers each row as replies show it, or null for a row whose record changed since its check.
   */
  write: (checked: P[], session: ClientSession) => Promise<Array<T | null>>;
  /** the row carried the version the client read: its record changing since is a 409 at once, not another round */
  strict?: (row: R) => boolean;
  /** rounds (check all, write all) before a 409 when records keep changing under rows without a version (25) */
  attempts?: number;
}

/** A row's record changed between its check and its write: the transaction is given up. */
class RowsChanged extends Error {
  constructor(readonly indexes: number[]) {
    super('rows changed since their check');
  }
}

/** Every row parsed and checked (CHECKS_AT_ONCE at a time); the checked rows, or the refusal naming each bad row. */
async function checkEvery<R, P>(
  rows: unknown[],
  o: BulkOptions<R, P, unknown>,
): Promise<{ parsed: R[]; checked: P[] }> {
  const errors: BulkRowError[] = [];
  const parsed: R[] = [];
  const firstOf = new Map<string, number>();
  rows.forEach((raw, index) => {
    const r = o.schema.safeParse(raw);
    if (!r.success) {
      errors.push(invalidRow(index, r.error.issues));
      return;
    }
    parsed[index] = r.data;
    const key = o.key?.(r.data);
    const first = key === undefined ? undefined : firstOf.get(key);
    if (key !== undefined && first === undefined) firstOf.set(key, index);
    else if (first !== undefined)
      errors.push(
        rowError(index, badRequest(`The same record as the row at index ${first}`, { field: 'id' })),
      );
  });
  const refused = new Set(errors.map((e) => e.index));
  const checked: P[] = [];
  const todo = rows.map((_, i) => i).filter((i) => !refused.has(i));
  for (let at = 0; at < todo.length; at += CHECKS_AT_ONCE)
    await Promise.all(
      todo.slice(at, at + CHECKS_AT_ONCE).map(async (index) => {
        try {
          checked[index] = await o.check(parsed[index], index);
        } catch (err) {
          errors.push(rowError(index, err));
        }
      }),
    );
  if (errors.length) throw bulkRefusal(errors, rows.length);
  return { parsed, checked };
}

/**
 * A bulk call, all or nothing: every row checked (a bad row named by its index, nothing written), then every row
 * written in one transaction. A row whose record changed between its check and its write gives the transaction up:
 * a 409 naming it when the client sent its version, else every row is checked and written again (as
 * `conditionalWrite` does for one record).
 */
export async function runBulk<R, P, T>(o: BulkOptions<R, P, T>): Promise<T[]> {
  const rows = bulkRows(o.body);
  const rounds = o.attempts ?? 25;
  let changed: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, Math.random() * 10));
    const { parsed, checked } = await checkEvery(rows, o);
    try {
      return await inTransaction(o.conn, async (session) => {
        const written = await o.write(checked, session);
        const lost = written.flatMap((t, i) => (t === null ? [i] : []));
        if (lost.length) throw new RowsChanged(lost);
        return written as T[];
      });
    } catch (err) {
      if (!(err instanceof RowsChanged)) throw err;
      changed = err.indexes;
      const stale = changed.filter((i) => o.strict?.(parsed[i]));
      if (stale.length) throw staleRows(stale, rows.length);
    }
  }
  throw staleRows(changed, rows.length);
}

/** The 409 naming rows whose records changed since they were read. */
const staleRows = (indexes: number[], total: number) =>
  bulkRefusal(
    indexes.map((index) => ({ index, status: 409, code: 'CONFLICT', message: MSG.conflict })),
    total,
  );

export interface BulkRouteOptions {
  /** POST: bulk create (201); PUT: bulk update (200) */
  method: 'POST' | 'PUT';
  /** the collection's path, e.g. '/hospitalLocations'; the route is `${path}/bulk` */
  path: string;
  permission: RoutePermission;
  tag: string;
  summary: string;
  /** one row of the body (documented; each row is checked by `save`, so that a bad one is named by its index) */
  row: z.ZodTypeAny;
  /** one row of the reply */
  reply: z.ZodTypeAny;
  /** the rows saved, as replies show them, in request order (runBulk) */
  save: (user: SessionUser, body: unknown) => Promise<unknown[]>;
}

const BULK_DESCRIPTION =
  `All or nothing, 1 to ${BULK_MAX_ROWS} rows. Every row is checked as the single call checks it (its ` +
  'permission, its data scope, its rules). When any row fails nothing is saved and the reply is 400 with ' +
  '`details.rows`: one `{index, status, code, message, fields?}` a failing row, its status and message those of ' +
  'the single call (a record outside your scope: 404); a 409 when every failing row is a stale `version`. ' +
  'Otherwise every row is saved in one transaction and the reply lists them in request order.';

/** POST or PUT {path}/bulk: many rows of a generic resource at once, all or nothing (runBulk in `save`). */
export function bulkRoute(app: FastifyInstance, o: BulkRouteOptions) {
  const status = o.method === 'POST' ? 201 : 200;
  const response: Record<number, z.ZodTypeAny> = { [status]: z.array(o.reply), ...errorReplies };
  app.route({
    method: o.method,
    url: `${o.path}/bulk`,
    config: { permission: o.permission },
    schema: {
      tags: [o.tag],
      summary: o.summary,
      description: BULK_DESCRIPTION,
      body: z.array(o.row).min(1).max(BULK_MAX_ROWS),
      response,
    },
    // the body is checked row by row in the handler (bulkRows, runBulk), so that each bad row is named by its index
    validatorCompiler: () => (data: unknown) => ({ value: data }),
    handler: async (req, reply) => {
      const saved = await o.save(requireUser(req), req.body);
      reply.status(status);
      return saved;
    },
  });
}
