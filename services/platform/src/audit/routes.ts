/**
 * GET /uam/api/v1/audit (the entries, newest first, filtered by user, patient, record, action, outcome and date
 * range), GET /uam/api/v1/audit/export (the same as CSV) and GET /uam/api/v1/audit/:id (one entry). VIEW_AUDIT_TRAIL
 * only (portal administrators). Nothing here writes an entry: the trail has no update or delete route.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth';
import { notFound } from '../errors';
import { listRoutes } from '../list-routes';
import { buildMatch, parseListQuery, type ListResource } from '../list-query';
import { errorReplies, idParams, listQuerystring, typed } from '../routes';
import { entryOf, type AuditModels, type EntryDoc } from './models';

export const auditResource: ListResource = {
  name: 'audit',
  fields: {
    seq: { type: 'number', filter: true, sort: true },
    when: { type: 'date', filter: true, sort: true },
    userId: { type: 'id', path: 'who.userId', filter: true },
    role: { type: 'string', path: 'who.role', filter: true },
    // the patient an entry is about, or one of a list read's patients
    patientId: { type: 'id', path: 'what.patientId', alsoAt: ['what.patientIds'], filter: true },
    recordType: { type: 'string', path: 'what.type', filter: true },
    recordId: { type: 'string', path: 'what.id', filter: true },
    action: { type: 'string', filter: true },
    outcome: { type: 'string', filter: true },
    requestId: { type: 'string', path: 'from.requestId', filter: true },
    ip: { type: 'string', path: 'from.ip', filter: true },
  },
  search: ['who.name', 'who.userId', 'what.id', 'what.patientId'],
  // the screen's filter lists: what was done, whether allowed, the kind of record, the role
  facets: [
    { name: 'audit_action_facet', field: 'action' },
    { name: 'audit_outcome_facet', field: 'outcome' },
    { name: 'audit_record_type_facet', field: 'recordType' },
    { name: 'audit_role_facet', field: 'role' },
  ],
  defaultSort: { field: 'seq', order: 'desc' },
  defaultPerPage: 25,
  maxPerPage: 500,
};

/** A row: the entry as stored, `id` for `_id`, the instant as ISO text. */
export function auditRow(doc: EntryDoc) {
  const e = entryOf(doc);
  return { ...e, when: e.when.toISOString() };
}

const tag = 'audit';
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

export const AUDIT_CSV_COLUMNS: Array<[string, (r: ReturnType<typeof auditRow>) => unknown]> = [
  ['Seq', (r) => r.seq],
  ['When', (r) => r.when],
  ['User id', (r) => r.who.userId],
  ['User', (r) => r.who.name],
  ['Role', (r) => r.who.role],
  ['On behalf of', (r) => r.onBehalfOf.join('; ')],
  ['Record type', (r) => r.what.type],
  ['Record id', (r) => r.what.id],
  ['Patient id', (r) => r.what.patientId ?? (r.what.patientIds ?? []).join('; ')],
  ['Action', (r) => r.action],
  ['Outcome', (r) => r.outcome],
  ['Changed fields', (r) => (r.changes ?? []).join('; ')],
  ['Rows', (r) => r.count],
  ['Status', (r) => r.status],
  ['Route', (r) => r.route],
  ['IP', (r) => r.from.ip],
  ['User agent', (r) => r.from.userAgent],
  ['Request id', (r) => r.from.requestId],
  ['Entry id', (r) => r.id],
  ['Previous hash', (r) => r.prevHash],
  ['Hash', (r) => r.hash],
];

const csvCell = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  // a cell a spreadsheet would run as a formula is quoted with a leading apostrophe
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const stamp = (d = new Date()) => d.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);

export function auditRoutes(models: AuditModels) {
  return async (app: FastifyInstance) => {
    const r = typed(app);
    r.get(
      '/audit/export',
      {
        config: { permission: 'VIEW_AUDIT_TRAIL', audit: { record: 'audit-trail', action: 'export' } },
        schema: {
          tags: [tag],
          summary: `The audit entries as CSV (same filter and sort as the list, at most ${AUDIT_EXPORT_MAX_ROWS} rows); file "audit_yyyyMMdd_HHmmss.csv"`,
          querystring: listQuerystring,
        },
      },
      async (req, reply) => {
        requireUser(req);
        const query = parseListQuery(auditResource, req.query as Record<string, unknown>);
        const match = buildMatch(auditResource, query, {});
        const order = query.sort.order === 'asc' ? 1 : -1;
        const cursor = models.Entry.find(match)
          .sort({ [query.sort.path]: order, seq: order })
          .limit(AUDIT_EXPORT_MAX_ROWS)
          .lean<EntryDoc>()
          .cursor();
        const lines = [AUDIT_CSV_COLUMNS.map(([title]) => csvCell(title)).join(',')];
        for await (const doc of cursor) {
          const row = auditRow(doc as EntryDoc);
          lines.push(AUDIT_CSV_COLUMNS.map(([, cell]) => csvCell(cell(row))).join(','));
        }
        req.auditSubject = { id: null, count: lines.length - 1 };
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="audit_${stamp()}.csv"`);
        return lines.join('\r\n') + '\r\n';
      },
    );

    listRoutes(app, {
      path: '/audit',
      resource: auditResource,
      model: models.Entry,
      permission: 'VIEW_AUDIT_TRAIL',
      scope: () => ({}),
      tag,
      noun: 'audit entries',
      summary:
        'List the audit trail (newest first): filter by userId, patientId, recordType, recordId, action, outcome, when (between(start,end)); every read, change, export and download of PHI',
      map: (doc: EntryDoc) => auditRow(doc),
    });

    r.get(
      '/audit/:id',
      {
        config: { permission: 'VIEW_AUDIT_TRAIL' },
        schema: {
          tags: [tag],
          summary: 'One audit entry',
          params: idParams,
          response: { 200: z.looseObject({ id: z.string(), seq: z.number() }), ...errorReplies },
        },
      },
      async (req) => {
        requireUser(req);
        const doc = await models.Entry.findById(req.params.id).lean<EntryDoc>().exec();
        if (!doc) throw notFound('Audit entry not found');
        return auditRow(doc);
      },
    );
  };
}
