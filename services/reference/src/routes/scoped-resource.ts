import type { FastifyInstance } from 'fastify';
import type { Model } from 'mongoose';
import type { z } from 'zod';
import {
  getByIdRoute,
  listRoutes,
  updateByIdRoute,
  type ListResource,
  type ListRoutesOptions,
  type RoutePermission,
  type SessionUser,
} from '@onco/platform';
import { loadScoped, updateScoped } from './shared';

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

export interface ScopedResourceOptions<B extends z.ZodType<{ version?: number }>> {
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
  /** GET {path}: the list (listRoutes), in the data scope unless it has a scope of its own */
  list?: Pick<ListRoutesOptions, 'resource' | 'noun' | 'summary'> & Partial<Pick<ListRoutesOptions, 'scope'>>;
  edit?: ScopedEdit<B>;
}

/**
 * A reference directory's routes within the user's data scope: its list (when given), GET {path}/:id (404
 * outside the scope) and, when given, the versioned edit PUT {path}/:id.
 */
export function scopedResourceRoutes<B extends z.ZodType<{ version?: number }>>(
  app: FastifyInstance,
  o: ScopedResourceOptions<B>,
) {
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
    load: async (user, id) => present(await loadScoped(o.model, id, o.scope(user)), user),
  });
  if (o.edit) scopedEditRoute(app, o, o.edit);
}

function scopedEditRoute<B extends z.ZodType<{ version?: number }>>(
  app: FastifyInstance,
  o: ScopedResourceOptions<B>,
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
        change: (current) => edit.change(body, current, user),
      });
      const updated = await (edit.after ? written.finally(() => edit.after!(id)) : written);
      return o.present ? o.present(updated, user) : updated;
    },
  });
}
