import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  buildMatch,
  jsonQueryParam,
  listQuerystring,
  parseListQuery,
  requireUser,
  typed,
  auditSubject,
} from '@onco/platform';
import { EXPORT_MAPPING, requisitionListScope, requisitionsResource } from '../../resource';
import { seenBy, tags, type TestOrderFormRouteOptions } from './shapes';

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? v.toISOString() : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function pick(doc: any, path: string): unknown {
  if (path === 'testOrders') {
    return (doc.testOrders ?? [])
      .map((t: any) => `${t.testOrderId ?? t.testType} (${t.testType}, ${t.status})`)
      .join('; ');
  }
  const v = path.split('.').reduce((o, k) => (o == null ? o : o[k]), doc);
  return Array.isArray(v) ? v.join('; ') : v;
}

/** An export's own column mapping: [field, title] pairs. */
const exportMapping = z
  .array(z.tuple([z.string().min(1).max(100), z.string().min(1).max(100)]))
  .min(1)
  .max(60);
const EXPORT_MAPPING_EXPECTED = 'a JSON list of [field, title] pairs, e.g. [["patient.name","Patient"]]';

/** yyyyMMdd_HHmmss, the spec's export timestamp (UTC). */
export function exportStamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}_${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

export const EXPORT_MAX_ROWS = 50_000;

/** GET /testOrderForms/export/mapping and /testOrderForms/export: the orders list as CSV. */
export function registerExportRoutes(app: FastifyInstance, { models }: TestOrderFormRouteOptions) {
  const r = typed(app);
  r.get(
    '/testOrderForms/export/mapping',
    {
      config: { permission: 'VIEW_ORDERS_PAGE' },
      schema: {
        tags,
        summary: 'The default column mapping of the orders CSV (field path to column title)',
        response: { 200: z.object({ content: z.array(z.object({ field: z.string(), title: z.string() })) }) },
      },
    },
    async () => ({ content: EXPORT_MAPPING.map(([field, title]) => ({ field, title })) }),
  );

  r.get(
    '/testOrderForms/export',
    {
      config: { permission: 'CAN_DOWNLOAD_CSV', audit: { record: 'requisition', action: 'export' } },
      schema: {
        tags,
        summary:
          'The orders list as CSV (same filter, sort and scope as the list; optional mapping JSON [[field, title], ...]); file "orders_yyyyMMdd_HHmmss.csv"',
        querystring: listQuerystring.extend({ mapping: z.string().optional() }),
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const qs = req.query as Record<string, unknown>;
      const query = parseListQuery(requisitionsResource, qs);
      const mapping =
        typeof qs.mapping === 'string' && qs.mapping
          ? jsonQueryParam('mapping', qs.mapping, EXPORT_MAPPING_EXPECTED, exportMapping)
          : EXPORT_MAPPING;
      const match = buildMatch(requisitionsResource, query, requisitionListScope(user, query));
      const sort = { [query.sort.path]: query.sort.order === 'asc' ? 1 : -1, _id: 1 } as Record<
        string,
        1 | -1
      >;
      const cursor = models.Requisition.find(match).sort(sort).limit(EXPORT_MAX_ROWS).lean().cursor();
      const lines: string[] = [mapping.map(([, title]) => csvCell(title)).join(',')];
      // the rows as this user may see them: a mapping cannot reach a withheld field (fieldView)
      for await (const doc of cursor) {
        const row = seenBy(user, doc);
        lines.push(mapping.map(([field]) => csvCell(pick(row, field))).join(','));
      }
      // the audit entry counts the rows (an export of many records names none)
      auditSubject(req, { id: null, count: lines.length - 1 });
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders_${exportStamp()}.csv"`);
      return lines.join('\r\n') + '\r\n';
    },
  );
}
