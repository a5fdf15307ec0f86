import type { FastifyInstance } from 'fastify';
import type { ClientSession, Model } from 'mongoose';
import { z } from 'zod';
import {
  bulkRoute,
  changeInputOf,
  getByIdRoute,
  idParams,
  inTransaction,
  listRoutes,
  requireUser,
  runBulk,
  toApi,
  typed,
  updateByIdRoute,
  type AuditRouteConfig,
  type ChangeDescription,
  type ListResource,
  type ListRoutesOptions,
  type RoutePermission,
  type SessionUser,
} from '@onco/platform';
import { referenceTrail } from '../use-cases/audit';
import { decideScopedEdit, loadScoped, updateScoped, writeScopedEdit } from './shared';

type Filter = Record<string, unknown>;

/**
 * A reference directory's list resource: filtered by id, its own fields, then the audit dates (createdOn,
 * updatedOn); 20 a page; soft-deleted records left out.
 */
export function directoryResource(r: Omit<ListResource, 'defaultPerPage' | 'deletedField'>): ListResource {
  return {
    ...r,
    fields: {
      id: { type: 'id', path: '_id', filter: true },
      ...r.fields,
      createdOn: { type: 'date', filter: true, sort: true },
      updatedOn: { type: 'date', filter: true, sort: true },
    },
    defaultPerPage: 20,
    deletedField: 'deleted',
  };
}

/** A versioned edit of one record within the data scope (updateScoped): PUT {path}/:id. */
export interface ScopedEdit<B extends z.ZodType<{ version?: number }>> {
  permission: RoutePermission;
  summary: string;
  body: B;
  /** the fields to set, from the body and the record read (throws the 400 of invalid input) */
  change: (body: z.infer<B>, current: any, user: SessionUser) => Filter;
  /** after the edit, written or not (e.g. forget a cached name) */
  after?: (id: string) => void;
}

/**
 * The creation of records: POST {path} (one) and POST {path}/bulk (many, all or nothing), both through `prepare`
 * (one body's checks and rules) and `insert` (the write).
 */
export interface ScopedCreate<C extends z.ZodTypeAny, P> {
  permission: RoutePermission;
  summary: string;
  body: C;
  /** one body checked (throws its 400, or 403 for a record outside the user's scope); what `insert` writes */
  prepare: (body: z.infer<C>, user: SessionUser) => Promise<P>;
  /**
   * writes prepared records in order, through `session` when given (a bulk create, an audited create); each as
   * stored (`_id`: the routes answer it as replies show it)
   */
  insert: (prepared: P[], user: SessionUser, session?: ClientSession) => Promise<object[]>;
}

export interface ScopedResourceOptions<
  B extends z.ZodType<{ version?: number }>,
  C extends z.ZodTypeAny = z.ZodTypeAny,
  P = unknown,
> {
  /** the collection's path, e.g. '/accounts'; one record is `${path}/:id` */
  path: string;
  model: Model<any>;
  /** the user's data scope: a record outside it does not exist for them (404) */
  scope: (user: SessionUser) => Filter;
  /** the reply of one record (and of the list's rows) */
  reply: z.ZodTypeAny;
  /** who reads the list and the records by id (default: any signed-in user) */
  readers?: RoutePermission;
  /** how a record by id reads in the reply (default: as stored) */
  present?: (doc: any, user: SessionUser) => unknown;
  /** the record by id is PHI: each read leaves an audit entry (docs/audit.md) */
  audit?: AuditRouteConfig;
  /**
   * how a change of a record reads in the audit trail: every create and edit, one or bulk, commits with its entry
   * in one transaction, or not at all (a 503 when the entry cannot be written; docs/audit.md "Changes")
   */
  changes?: ChangeDescription<any>;
  /** GET {path}: the list (listRoutes), in the data scope unless it has a scope of its own */
  list?: Pick<ListRoutesOptions, 'resource' | 'noun' | 'summary'> & Partial<Pick<ListRoutesOptions, 'scope'>>;
  edit?: ScopedEdit<B>;
  create?: ScopedCreate<C, P>;
}

/**
 * A reference directory's routes within the user's data scope: its list (when given), GET {path}/:id (404
 * outside the scope), and when given the versioned edit PUT {path}/:id with its bulk PUT {path}/bulk and the
 * creation POST {path} with its bulk POST {path}/bulk (docs/decisions.md "Bulk create and update"). With `changes`
 * each of these writes commits with its audit entries.
 */
export function scopedResourceRoutes<
  B extends z.ZodType<{ version?: number }>,
  C extends z.ZodTypeAny = z.ZodTypeAny,
  P = unknown,
>(app: FastifyInstance, o: ScopedResourceOptions<B, C, P>) {
  const readers = o.readers ?? 'AUTHENTICATED';
  const present = o.present ?? ((doc: unknown) => doc);
  if (o.list)
    listRoutes(app, {
      path: o.path,
      resource: o.list.resource,
      model: o.model,
      permission: readers,
      scope: o.list.scope ?? o.scope,
      tag: 'reference',
      noun: o.list.noun,
      summary: o.list.summary,
      row: o.reply,
    });
  getByIdRoute(app, {
    path: `${o.path}/:id`,
    permission: readers,
    tag: 'reference',
    reply: o.reply,
    audit: o.audit,
    load: async (user, id) => present(await loadScoped(o.model, id, o.scope(user)), user),
  });
  if (o.edit) {
    scopedEditRoute(app, o, o.edit);
    scopedBulkEditRoute(app, o, o.edit);
  }
  if (o.create) scopedCreateRoutes(app, o, o.create);
}

function scopedEditRoute<B extends z.ZodType<{ version?: number }>>(
  app: FastifyInstance,
  o: ScopedResourceOptions<B, any, any>,
  edit: ScopedEdit<B>,
) {
  updateByIdRoute(app, {
    path: `${o.path}/:id`,
    permission: edit.permission,
    tag: 'reference',
    summary: edit.summary,
    body: edit.body,
    reply: o.reply,
    update: async (user, id, body) => {
      const written = updateScoped({
        model: o.model,
        id,
        scope: o.scope(user),
        version: body.version,
        userId: user.id,
        audit: o.changes,
        change: (current) => edit.change(body, current, user),
      });
      const updated = await (edit.after ? written.finally(() => edit.after!(id)) : written);
      return o.present ? o.present(updated, user) : updated;
    },
  });
}

/** Each record as the reply shows it to this user. */
const presentAll = (o: Pick<ScopedResourceOptions<any>, 'present'>, rows: unknown[], user: SessionUser) =>
  o.present ? rows.map((r) => o.present!(r, user)) : rows;

/**
 * PUT {path}/bulk: the versioned edit of many records, all or nothing (runBulk). Each row is the edit's body with
 * the record's `id`, decided as the single edit decides it (404 outside the scope, 409 on a stale `version`, the
 * change's 400s) and written conditional on the version read, every row in one transaction.
 */
function scopedBulkEditRoute<B extends z.ZodType<{ version?: number }>>(
  app: FastifyInstance,
  o: ScopedResourceOptions<B, any, any>,
  edit: ScopedEdit<B>,
) {
  const row = z.object({ id: idParams.shape.id }).and(edit.body);
  bulkRoute(app, {
    method: 'PUT',
    path: o.path,
    permission: edit.permission,
    tag: 'reference',
    summary: `${edit.summary}: many at once, each row with its id`,
    row,
    reply: o.reply,
    save: async (user, body) => {
      const scope = o.scope(user);
      const at = (id: string) => ({
        model: o.model,
        id,
        scope,
        userId: user.id,
        audit: o.changes,
      });
      const ids: string[] = [];
      try {
        const updated = await runBulk({
          body,
          schema: row,
          key: (r) => r.id,
          strict: (r) => r.version !== undefined,
          conn: o.model.db,
          check: async (r) => {
            const { id, ...b } = r;
            ids.push(id);
            const decided = await decideScopedEdit({
              ...at(id),
              version: r.version,
              change: (current) => edit.change(b as z.infer<B>, current, user),
            });
            return { id, decided };
          },
          write: async (checked, session) => {
            const out: unknown[] = [];
            for (const c of checked) out.push(await writeScopedEdit(at(c.id), c.decided, session));
            return out;
          },
        });
        // the edits' audit entries committed with them: this process's chainer takes them at once
        if (o.changes) referenceTrail(o.model.db).recorded();
        return presentAll(o, updated, user);
      } finally {
        if (edit.after) for (const id of new Set(ids)) edit.after(id);
      }
    },
  });
}

/**
 * POST {path} (one record, 201) and POST {path}/bulk (many, all or nothing): prepare, then insert. With `changes`
 * each record's `create` entry is written in the insert's transaction (the single create's own, the bulk's one).
 */
function scopedCreateRoutes<C extends z.ZodTypeAny, P>(
  app: FastifyInstance,
  o: ScopedResourceOptions<any, C, P>,
  create: ScopedCreate<C, P>,
) {
  const trail = referenceTrail(o.model.db);
  const changes = o.changes;
  /** The records written through `session`, with their entries when audited (then `session` is the transaction's). */
  const insert = async (prepared: P[], user: SessionUser, session?: ClientSession) => {
    const docs = (await create.insert(prepared, user, session)) as Array<Record<string, unknown>>;
    if (changes && session)
      await trail.recordIn(
        session,
        docs.map((d) => changeInputOf(changes, null, d)),
      );
    return docs;
  };
  /** Records as this user's replies show them, once written: an audited write's entries are committed. */
  const answer = (docs: Array<Record<string, unknown>>, user: SessionUser) => {
    if (changes) trail.recorded();
    return presentAll(o, docs.map(toApi), user);
  };
  typed(app).post(
    o.path,
    {
      config: { permission: create.permission },
      schema: { tags: ['reference'], summary: create.summary, body: create.body, response: { 201: o.reply } },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const prepared = [await create.prepare(req.body as z.infer<C>, user)];
      const created = changes
        ? await inTransaction(o.model.db, (session) => insert(prepared, user, session))
        : await insert(prepared, user);
      reply.status(201);
      return answer(created, user)[0];
    },
  );
  bulkRoute(app, {
    method: 'POST',
    path: o.path,
    permission: create.permission,
    tag: 'reference',
    summary: `${create.summary}: many at once`,
    row: create.body,
    reply: o.reply,
    save: async (user, body) => {
      const created = await runBulk({
        body,
        schema: create.body as z.ZodType<z.infer<C>>,
        conn: o.model.db,
        check: (r) => create.prepare(r, user),
        write: (prepared, session) => insert(prepared, user, session),
      });
      return answer(created, user);
    },
  });
}
