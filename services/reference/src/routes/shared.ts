import { z } from 'zod';
import type { Model } from 'mongoose';
import { notFound, toApi } from '@onco/platform';
import type { ReferenceModels } from '../models';

/** What every reference route file gets. */
export interface RouteDeps {
  models: ReferenceModels;
}

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

export const ref = z.object({ id: z.string(), name: z.string().nullish() });
export const str = z.string().nullish();

/** One record by id within the data scope (and not soft-deleted), or a 404: out-of-scope records do not exist. */
export async function loadScoped<T>(
  model: Model<T>,
  id: string,
  scope: Record<string, unknown>,
): Promise<any> {
  // _id stays a top-level equality (FerretDB v1 looks that up directly; other filters scan the collection)
  const filter: Record<string, unknown> = { _id: id, deleted: { $ne: true } };
  const clash = Object.keys(scope).some((k) => k in filter);
  const doc = await model
    .findOne(clash ? { ...filter, $and: [scope] } : { ...filter, ...scope })
    .lean()
    .exec();
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
