import type { FastifyInstance } from 'fastify';
import type { Model } from 'mongoose';
import type { AuditRecordType, Permission } from '@onco/domain';
import { listSubject } from './audit/plugin';
import { requireUser, type SessionUser } from './auth';
import { toApi } from './records';
import { runFacets, runList, sendList } from './list-exec';
import { parseListQuery, visibleTo, type ListQuery, type ListResource } from './list-query';
import { errorReplies, facetSchema, listQuerystring, listReply, typed } from './routes';
import { z } from 'zod';

export interface ListRoutesOptions {
  /** e.g. '/billingCases'; the facets route is `${path}/facets` */
  path: string;
  resource: ListResource;
  model: Model<any>;
  permission: Permission | Permission[] | 'AUTHENTICATED';
  /** the data scope (and any list default) for this user and query */
  scope: (user: SessionUser, query: ListQuery) => Record<string, unknown>;
  tag: string;
  /** what one row is, in words (for the API document) */
  noun: string;
  /** the list route's summary, when more than the noun is worth saying */
  summary?: string;
  /** how one row reads in the reply (default toApi); gets the signed-in user for per-row actions */
  map?: (doc: any, user: SessionUser) => unknown;
  /** the reply schema of one row (default: any record with an id; its other fields pass through) */
  row?: z.ZodTypeAny;
  /**
   * The list shows patients' data: each page served is an audit entry (a read of `record`, naming the patients
   * of its rows, `patientOf` a row as replied; docs/audit.md "Reads").
   */
  audit?: {
    record: AuditRecordType;
    patientOf: (row: any) => string | null | undefined | Array<string | null | undefined>;
  };
}

/**
 * The routes of a scoped list: GET {path} (both list dialects, optional facets) and, when the resource
 * declares facets, GET {path}/facets (named facets for the same filter).
 */
export function listRoutes(app: FastifyInstance, o: ListRoutesOptions) {
  const r = typed(app);
  r.get(
    o.path,
    {
      config: {
        permission: o.permission,
        ...(o.audit ? { audit: { record: o.audit.record, subject: listSubject(o.audit.patientOf) } } : {}),
      },
      schema: {
        tags: [o.tag],
        summary: o.summary ?? `List ${o.noun} (both list dialects)`,
        querystring: listQuerystring,
        response: { 200: listReply(o.row ?? z.looseObject({ id: z.string() })), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const resource = visibleTo(o.resource, user.grantedAuthorities);
      const query = parseListQuery(resource, req.query as Record<string, unknown>);
      const withheld = Object.keys(resource.withheld ?? {});
      const map = (doc: any) => {
        const row = (o.map ? o.map(doc, user) : toApi(doc)) as Record<string, unknown>;
        if (!withheld.length) return row;
        const out = { ...row };
        for (const k of withheld) delete out[k];
        return out;
      };
      const result = await runList(o.model, resource, query, o.scope(user, query), { map });
      return sendList(reply, resource, query, result);
    },
  );
  if (!o.resource.facets?.length) return;
  r.get(
    `${o.path}/facets`,
    {
      config: { permission: o.permission },
      schema: {
        tags: [o.tag],
        summary: `Facets of ${o.noun} for the same filter`,
        querystring: listQuerystring,
        response: { 200: z.object({ content: z.array(facetSchema) }), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const qs = req.query as Record<string, unknown>;
      const resource = visibleTo(o.resource, user.grantedAuthorities);
      const query = parseListQuery(resource, { ...qs, facets: qs.facets ?? 'true' });
      return {
        content: await runFacets(o.model, resource, query, o.scope(user, query), query.facets),
      };
    },
  );
}
