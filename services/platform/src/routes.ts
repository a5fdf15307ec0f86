import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** The typed router every area uses: zod schemas for params, query, body and replies. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<ZodTypeProvider>();
}

export const errorBody = z.object({
  status: z.number(),
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  requestId: z.string().optional(),
});

/** Raw list querystring (both dialects); parseListQuery checks it against the resource. */
export const listQuerystring = z
  .object({
    page: z.string().optional(),
    perPage: z.string().optional(),
    size: z.string().optional(),
    sort: z.string().optional(),
    sortValue: z.string().optional(),
    sortOrder: z.string().optional(),
    filter: z.string().optional(),
    q: z.string().optional(),
    facets: z.string().optional(),
    distinct: z.string().optional(),
    range: z.string().optional(),
    type: z.string().optional(),
    conjunction: z.string().optional(),
    since: z.string().optional(),
    textSearchType: z.string().optional(),
  })
  .passthrough();

export const idParams = z.object({ id: z.string().min(1).max(64) });

export const facetSchema = z.object({
  name: z.string(),
  // items may carry a display label besides value and count
  items: z.array(z.looseObject({ value: z.unknown(), count: z.number() })),
});

/** A date in a reply (serialized as ISO text). */
export const dateOut = z.union([z.date(), z.string()]);

export const messageReply = z.object({ message: z.string() });

/** The error replies every route may give. */
export const errorReplies = {
  400: errorBody,
  401: errorBody,
  403: errorBody,
  404: errorBody,
  409: errorBody,
  // a service the platform runs on is away (details.dependency: store, redis or kafka): try again shortly
  503: errorBody,
} as const;

export function listReply<T extends z.ZodTypeAny>(row: T) {
  return z.union([
    z.object({ content: z.array(row), totalElements: z.number(), facets: z.array(facetSchema).optional() }),
    z.array(row),
  ]);
}
