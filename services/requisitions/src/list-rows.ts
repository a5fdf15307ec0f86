import { randomUUID } from 'node:crypto';
import mongoose, { type Connection, type Model, type Schema } from 'mongoose';
import { matchesQuery } from '@onco/platform';
import { requisitionsResource, REQUISITION_SCOPE_PATHS } from './resource';

/**
 * The orders list's read model: collection `test_order_form_list_rows`, one small document per requisition
 * (same `_id`) holding, as one BSON binary field `r`, only what the list filters, searches, sorts, scopes and
 * facets on, at the same paths as in the requisition.
 *
 * Why: FerretDB v1 on SQLite decodes every document of a collection for any query other than an `_id`
 * equality, at a cost that grows with the number of fields (measured on 20,000 rows: ~0.7-1 ms a row as a
 * document of ~25 fields, ~0.15 ms as one opaque field, on the shared 2-core machine). So the list reads every
 * row once as an opaque value, decodes it in Node (exact types: dates stay dates) and applies the whole match
 * there (`matchesQuery`); the page's 15 requisitions are then read whole by `_id`, so the API's rows are
 * unchanged.
 *
 * Kept in step by the requisition schema's own middleware (`keepListRows`): after every create, update or
 * delete of a requisition through its model, its row is rewritten from the stored requisition. Rows missing
 * (data written before this model existed, or by a raw driver write) are filled in on the first list read of
 * the process (`ensureListRows`).
 */
export const LIST_ROWS_COLLECTION = 'test_order_form_list_rows';

/** Every path the list reads, from the list's own definition (fields, search, facets, soft delete, scope). */
export const LIST_ROW_PATHS: readonly string[] = [
  ...new Set(
    [
      '_id',
      ...Object.entries(requisitionsResource.fields).map(([name, f]) => f.path ?? name),
      ...requisitionsResource.search,
      ...(requisitionsResource.facets ?? []).flatMap((f) => (f.path ? [f.path] : [])),
      ...(requisitionsResource.deletedField ? [requisitionsResource.deletedField] : []),
      ...REQUISITION_SCOPE_PATHS,
    ].sort(),
  ),
];

function copyPath(src: any, keys: string[], dst: any) {
  const [k, ...rest] = keys;
  if (src === null || typeof src !== 'object' || !(k in src) || src[k] === undefined) return;
  const v = src[k];
  if (rest.length === 0 || v === null || typeof v !== 'object' || v instanceof Date) {
    dst[k] = v;
    return;
  }
  if (Array.isArray(v)) {
    const out: any[] = Array.isArray(dst[k])
      ? dst[k]
      : (dst[k] = v.map((e) => (e !== null && typeof e === 'object' ? {} : e)));
    v.forEach((e, i) => {
      if (e !== null && typeof e === 'object') copyPath(e, rest, out[i]);
    });
    return;
  }
  if (dst[k] === null || typeof dst[k] !== 'object') dst[k] = {};
  copyPath(v, rest, dst[k]);
}

/** The list row of a requisition: the list's paths only, with the requisition's structure. */
export function listRowOf(doc: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const p of LIST_ROW_PATHS) copyPath(doc, p.split('.'), row);
  return row;
}

const { BSON, Binary } = mongoose.mongo;

/** The stored form of a row: `{_id, r: BSON of listRowOf(requisition)}`. */
export function storedRowOf(doc: Record<string, unknown>) {
  return { _id: doc._id, r: new Binary(BSON.serialize(listRowOf(doc))) };
}

/** Every row, decoded (what the list scans). */
export async function readListRows(conn: Connection): Promise<Array<Record<string, any>>> {
  const stored = await conn.collection(LIST_ROWS_COLLECTION).find({}).toArray();
  return stored.flatMap((d: any) => (d.r ? [BSON.deserialize(d.r.buffer)] : []));
}

/** Rewrite the rows of these requisitions from what is stored (a requisition gone: its row goes too). */
export async function syncListRows(conn: Connection, ids: unknown[]): Promise<void> {
  const rows = conn.collection(LIST_ROWS_COLLECTION);
  const source = conn.collection('test_order_forms');
  await Promise.all(
    [...new Set(ids.map(String))].map(async (id) => {
      // `{_id}` alone: the one filter FerretDB's SQLite backend answers without a scan
      const doc = await source.findOne({ _id: id as any });
      if (doc) await rows.replaceOne({ _id: id as any }, storedRowOf(doc) as any, { upsert: true });
      else await rows.deleteOne({ _id: id as any });
    }),
  );
  await noteChanges(conn, [...new Set(ids.map(String))]);
}

/**
 * The change log the processes' row caches follow (`currentListRows`): one small entry per row written, kept
 * for twice the full-read interval (`listRowTiming`). An entry without a row asks every cache for a full read (after a backfill).
 */
export const LIST_ROW_CHANGES_COLLECTION = 'test_order_form_list_changes';
/** changes are re-read from this long before a cache's last refresh (a slow writer's entry lands late) */
const CHANGE_OVERLAP_MS = 60_000;
/** a cache reads every row at least this often (in the background); tests shorten it */
export const listRowTiming = { fullReadMs: 30 * 60_000 };

async function noteChanges(conn: Connection, ids: Array<string | null>) {
  if (!ids.length) return;
  const at = new Date();
  await conn
    .collection(LIST_ROW_CHANGES_COLLECTION)
    .insertMany(ids.map((row) => ({ _id: randomUUID() as any, row, at })));
}

interface RowCache {
  rows: Map<string, Record<string, any>>;
  /** the rows as one array, the same object until a row changes (list results are cached per snapshot) */
  snapshot?: Array<Record<string, any>>;
  syncedAt: number;
  fullAt: number;
  prunedAt: number;
  /** change entries already applied (within the overlap window): re-reading them changes nothing */
  seen: Map<string, number>;
  pending?: { promise: Promise<void>; startedAt: number };
  /** the periodic full read, running beside the requests; swapped in by the next refresh */
  background?: Promise<{ rows: Map<string, Record<string, any>>; startedAt: number } | undefined>;
}
const caches = new WeakMap<Connection, RowCache>();

async function readAll(conn: Connection) {
  const all = await readListRows(conn);
  return new Map(all.map((r) => [String(r._id), r]));
}

async function refresh(conn: Connection, c: RowCache): Promise<void> {
  const started = Date.now();
  const log = conn.collection(LIST_ROW_CHANGES_COLLECTION);
  if (c.background) {
    // a finished periodic full read replaces the rows; the changes since it started are applied below again
    const done = await Promise.race([c.background, Promise.resolve(null)]);
    if (done !== null) {
      c.background = undefined;
      if (done) {
        c.rows = done.rows;
        c.snapshot = undefined;
        c.fullAt = done.startedAt;
        c.syncedAt = Math.min(c.syncedAt, done.startedAt);
        c.seen.clear();
      }
    }
  }
  if (c.fullAt) {
    const changes = await log.find({ at: { $gte: new Date(c.syncedAt - CHANGE_OVERLAP_MS) } }).toArray();
    const fresh = changes.filter((ch) => !c.seen.has(String(ch._id)));
    if (!fresh.some((ch) => ch.row === null)) {
      const ids = [...new Set(fresh.map((ch) => String(ch.row)))];
      const rows = conn.collection(LIST_ROWS_COLLECTION);
      await Promise.all(
        ids.map(async (id) => {
          const d: any = await rows.findOne({ _id: id as any });
          if (d?.r) c.rows.set(id, BSON.deserialize(d.r.buffer));
          else c.rows.delete(id);
        }),
      );
      if (ids.length) c.snapshot = undefined;
      for (const ch of fresh) c.seen.set(String(ch._id), new Date(ch.at).getTime());
      for (const [id, at] of c.seen) if (at < started - 2 * CHANGE_OVERLAP_MS) c.seen.delete(id);
      c.syncedAt = started;
      if (started - c.prunedAt > 60_000) {
        c.prunedAt = started;
        await log.deleteMany({ at: { $lt: new Date(started - 2 * listRowTiming.fullReadMs) } });
      }
      if (started - c.fullAt >= listRowTiming.fullReadMs && !c.background) {
        // the safety net against a missed change: a full read now and then, without holding up requests
        c.background = readAll(conn).then(
          (rows) => ({ rows, startedAt: started }),
          () => undefined,
        );
      }
      return;
    }
  }
  // the first read of this process, or after a backfill (a change entry without a row): every row, now.
  // The change entries already logged are covered by it (each is written after its row), so they count as seen.
  const covered = await log.find({ at: { $gte: new Date(started - CHANGE_OVERLAP_MS) } }).toArray();
  c.rows = await readAll(conn);
  c.snapshot = undefined;
  c.syncedAt = c.fullAt = started;
  c.seen.clear();
  for (const ch of covered) c.seen.set(String(ch._id), new Date(ch.at).getTime());
  c.background = undefined;
}

/**
 * Every row as of now, from this process's cache of the decoded rows: the first call reads them all (and a
 * full read runs in the background every `listRowTiming.fullReadMs`); later calls re-read only the rows the change log
 * names. A call waits for a refresh that started after it was made, so a list read after a write (from any
 * process) sees that write. The array returned is the same object as long as no row changed (a list result
 * computed from it can be reused for the same query: `scanList`).
 */
export async function currentListRows(conn: Connection): Promise<Array<Record<string, any>>> {
  await ensureListRows(conn);
  let c = caches.get(conn);
  if (!c) caches.set(conn, (c = { rows: new Map(), syncedAt: 0, fullAt: 0, prunedAt: 0, seen: new Map() }));
  const asked = Date.now();
  for (;;) {
    if (c.pending) {
      const { promise, startedAt } = c.pending;
      if (startedAt >= asked) {
        await promise;
        break;
      }
      await promise.catch(() => undefined);
      continue;
    }
    const pending = { promise: refresh(conn, c), startedAt: Date.now() };
    c.pending = pending;
    pending.promise
      .finally(() => {
        if (c.pending === pending) c.pending = undefined;
      })
      .catch(() => undefined);
  }
  return (c.snapshot ??= [...c.rows.values()]);
}

const filled = new WeakMap<Connection, Promise<void>>();

async function collectionCount(conn: Connection, name: string): Promise<number> {
  // collStats counts from SQLite's page statistics; count/countDocuments would decode every document
  const res = await conn.db!.command({ collStats: name }).catch(() => ({ count: 0 }));
  return Number(res.count ?? 0);
}

/**
 * Fill in missing rows (and drop orphans) when the row count differs from the requisition count: once per
 * connection and process, before the first list read. The first time on a large database this reads every
 * requisition once.
 */
export function ensureListRows(conn: Connection): Promise<void> {
  let p = filled.get(conn);
  if (!p) {
    p = (async () => {
      const [want, have] = await Promise.all([
        collectionCount(conn, 'test_order_forms'),
        collectionCount(conn, LIST_ROWS_COLLECTION),
      ]);
      const rows = conn.collection(LIST_ROWS_COLLECTION);
      // rows of an older form (not one binary field) are rebuilt
      const sample = await rows.find({}).limit(1).toArray();
      if (sample.length && !sample[0].r) await rows.deleteMany({});
      else if (want === have) return;
      const known = new Set(
        (await rows.find({}, { projection: { _id: 1 } }).toArray()).map((r) => String(r._id)),
      );
      const projection = Object.fromEntries(LIST_ROW_PATHS.map((p) => [p.split('.')[0], 1]));
      const seen = new Set<string>();
      let batch: any[] = [];
      for await (const doc of conn.collection('test_order_forms').find({}, { projection })) {
        seen.add(String(doc._id));
        if (known.has(String(doc._id))) continue;
        batch.push(storedRowOf(doc));
        if (batch.length >= 1000) {
          await rows.insertMany(batch, { ordered: false }).catch(() => undefined);
          batch = [];
        }
      }
      if (batch.length) await rows.insertMany(batch, { ordered: false }).catch(() => undefined);
      const orphans = [...known].filter((id) => !seen.has(id));
      for (const id of orphans) await rows.deleteOne({ _id: id as any });
      await noteChanges(conn, [null]); // every process's cache reads all rows again
    })();
    filled.set(conn, p);
    p.catch(() => filled.delete(conn));
  }
  return p;
}

/**
 * The list's row source: every row as of now (see currentListRows). Made when the routes are registered, so
 * the process starts reading the rows then, not on the first list request.
 */
export function listRowsOf(conn: Connection): () => Promise<Array<Record<string, any>>> {
  setImmediate(() => void currentListRows(conn).catch(() => undefined));
  return () => currentListRows(conn);
}

function idsOf(filter: Record<string, any> | undefined, result: unknown): unknown[] {
  const id = filter?._id;
  if (typeof id === 'string') return [id];
  if (id && Array.isArray(id.$in)) return id.$in;
  const docs = Array.isArray(result) ? result : [result];
  return docs.flatMap((d: any) => (d && d._id !== undefined ? [d._id] : []));
}

/**
 * Mongoose plugin for the requisition schema: after each write through the model, rewrite the written
 * requisitions' list rows (awaited, so a caller holding the requisition's lock also covers its row).
 */
export function keepListRows(schema: Schema) {
  schema.post('save', async function (doc: any) {
    await syncListRows(doc.constructor.db, [doc._id]);
  });
  schema.post('insertMany', async function (this: Model<any>, docs: any) {
    await syncListRows(
      this.db,
      (docs as any[]).map((d) => d._id),
    );
  });
  for (const op of [
    'updateOne',
    'updateMany',
    'findOneAndUpdate',
    'findOneAndReplace',
    'replaceOne',
    'findOneAndDelete',
    'deleteOne',
    'deleteMany',
  ] as const) {
    schema.post(op, async function (this: any, result: unknown) {
      if (typeof this?.getFilter !== 'function') return; // document-level deleteOne/updateOne: see 'save'
      const conn: Connection = this.model.db;
      let ids = idsOf(this.getFilter(), result);
      if (!ids.length && (op === 'updateMany' || op === 'deleteMany')) {
        // a write by a filter other than _id: refresh every row it could have touched (rare; scans)
        ids = (
          await conn
            .collection('test_order_forms')
            .find(this.getFilter(), { projection: { _id: 1 } })
            .toArray()
        ).map((d) => d._id);
        if (op === 'deleteMany') {
          const stale = (await readListRows(conn)).filter((r) => matchesQuery(r, this.getFilter()));
          ids.push(...stale.map((d) => d._id));
        }
      }
      if (ids.length) await syncListRows(conn, ids);
    });
  }
}
