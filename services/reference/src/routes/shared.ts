import { z } from 'zod';
import type { ClientSession, Model } from 'mongoose';
import {
  badRequest,
  conditionalWrite,
  conflict,
  notFound,
  toApi,
  type AuditRouteConfig,
  type ChangeDescription,
} from '@onco/platform';
import { referenceTrail } from '../use-cases/audit';
import type { ReferenceDeps } from '../use-cases/deps';

/** What every reference route file gets: the module's deps, which it hands to the use cases. */
export type RouteDeps = ReferenceDeps;

export const str = z.string().nullish();

/** A route serving part of one patient's data (`/patients/:id/...`): a read of that patient (docs/audit.md). */
export const PATIENT_PART_READ: AuditRouteConfig = {
  record: 'patient',
  subject: (_reply, req) => ({ patientId: (req.params as { id?: string }).id ?? null }),
};

/** The audit fields of a record as replies show them (spec 1 section 3, "Common audit fields"). */
export const auditReply = {
  id: z.string(),
  createdOn: z.date().nullish(),
  createdBy: z.string().nullish(),
  updatedOn: z.date().nullish(),
  updatedBy: z.string().nullish(),
  version: z.number().nullish(),
  archived: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
};

/** The person fields a patient and a physician reply share: their number and their name, in parts and whole. */
export const personReply = {
  ...auditReply,
  userId: z.string(),
  firstName: z.string(),
  middleName: str,
  lastName: z.string(),
  name: z.string(),
};

export const ref = z.object({ id: z.string(), name: z.string().nullish() });

/** The filter of one record by id within the data scope and not soft-deleted (plus `extra` conditions). */
export function scopedById(
  id: string,
  scope: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const filter: Record<string, unknown> = { _id: id, deleted: { $ne: true }, ...extra };
  const clash = Object.keys(scope).some((k) => k in filter);
  return clash ? { ...filter, $and: [scope] } : { ...filter, ...scope };
}

/** One record by id within the data scope (and not soft-deleted), or a 404: out-of-scope records do not exist. */
export async function loadScoped<T>(
  model: Model<T>,
  id: string,
  scope: Record<string, unknown>,
): Promise<any> {
  const doc = await model.findOne(scopedById(id, scope)).lean().exec();
  if (!doc) throw notFound();
  return toApi(doc as Record<string, any>);
}

/** Both conditions (either may be empty). */
export function and(...parts: Array<Record<string, unknown>>): Record<string, unknown> {
  const nonEmpty = parts.filter((p) => Object.keys(p).length > 0);
  if (nonEmpty.length === 0) return {};
  if (nonEmpty.length === 1) return nonEmpty[0];
  return { $and: nonEmpty };
}

/** Where a versioned edit of one record goes: the record, the user's data scope, and who makes the edit. */
export interface ScopedEditTarget<T> {
  model: Model<T>;
  id: string;
  scope: Record<string, unknown>;
  userId: string;
  /** how the record's changes read in the audit trail: each edit commits with its entry (docs/audit.md "Changes") */
  audit?: ChangeDescription<any>;
}

/** An edit decided on the record read: the version it was read at and the fields to set. */
export interface DecidedEdit {
  version: number;
  set: Record<string, unknown>;
}

/**
 * Decide a versioned edit of one record within the data scope: read it (out of scope or deleted: 404), refuse a
 * stale `version` (409), then compute the change from the record read (its rules throw their 400s).
 */
export async function decideScopedEdit<T>(
  o: Omit<ScopedEditTarget<T>, 'userId'> & {
    version?: number;
    change: (current: any) => Record<string, unknown> | Promise<Record<string, unknown>>;
  },
): Promise<DecidedEdit> {
  const current = await loadScoped(o.model, o.id, o.scope);
  if (o.version !== undefined && o.version !== current.version) throw conflict();
  return { version: current.version, set: await o.change(current) };
}

/**
 * Write a decided edit with the audit fields and version + 1, in one update conditional on the version read (and
 * the scope), through `session` when given (a bulk update's transaction). An audited record's edit commits with its
 * entry: in its own transaction, or in the bulk update's. The record as replies show it, or null when it changed
 * since it was read.
 */
export async function writeScopedEdit<T>(
  o: ScopedEditTarget<T>,
  edit: DecidedEdit,
  session?: ClientSession,
): Promise<any> {
  const filter = scopedById(o.id, o.scope, { version: edit.version });
  const update = { $set: { ...edit.set, updatedOn: new Date(), updatedBy: o.userId }, $inc: { version: 1 } };
  let updated: Record<string, unknown> | null;
  if (o.audit) {
    const trail = referenceTrail(o.model.db);
    // in a bulk update the caller's transaction commits the entries (and tells the chainer)
    updated = session
      ? await trail.updateIn(session, o.model, filter, update, o.audit)
      : await trail.update(o.model, filter, update, o.audit);
  } else
    updated = await o.model
      .findOneAndUpdate(filter as any, update as any, {
        returnDocument: 'after',
        ...(session ? { session } : {}),
      })
      .lean()
      .exec();
  return updated ? toApi(updated as Record<string, any>) : null;
}

/**
 * A versioned edit of one record within the data scope: decided on the record read (decideScopedEdit: 404, 409 on a
 * stale `version`, the change's 400s), then written conditional on that version (writeScopedEdit). When the write
 * matches nothing the record changed in between: with a `version` from the client that is a 409; without one the
 * edit is made again on the new record (each round has a winner; the bound only caps a pathological pile-up).
 */
export async function updateScoped<T>(
  o: ScopedEditTarget<T> & {
    version?: number;
    change: (current: any) => Record<string, unknown> | Promise<Record<string, unknown>>;
  },
): Promise<any> {
  return conditionalWrite(async () => writeScopedEdit(o, await decideScopedEdit(o)), {
    strict: o.version !== undefined,
  });
}

/** A 400 naming every field in error (details.errors: field -> the spec's message). */
export function fieldErrors(errors: Record<string, string>, labels: Record<string, string>) {
  const message = Object.entries(errors)
    .map(([f, m]) => (m.startsWith(labels[f] ?? '\u0000') ? m : `${labels[f] ?? f}: ${m}`))
    .join('; ');
  return badRequest(message, { field: Object.keys(errors)[0], errors });
}

/** Optional trimmed text with a length bound; null clears the field. */
export const text = (max: number) => z.string().max(max).nullish();
