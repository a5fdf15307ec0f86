import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  buildMatch,
  can,
  errorReplies,
  idParams,
  listQuerystring,
  listRoutes,
  parseListQuery,
  notFound,
  requireUser,
  toApi,
  typed,
  type SessionUser,
} from '@onco/platform';
import { BILLING_REVIEW_STATUSES, RequisitionFormSchema } from '@onco/domain';
import type { RequisitionDoc, RequisitionModels } from '../models';
import { timelineOrder } from '../projections/timeline';
import {
  EXPORT_MAPPING,
  requisitionByIdFilter,
  requisitionListScope,
  requisitionsResource,
} from '../resource';
import {
  copyRequisition,
  createRequisition,
  getRequisition,
  mergeRequisitions,
  removeRequisition,
  requisitionActionsFor,
  saveRequisition,
  setBillingReview,
  signRequisition,
  submitRequisition,
  subsequentOrder,
  type RequisitionDeps,
} from '../use-cases';

const requisitionReply = z.looseObject({ id: z.string() });
const replies = { 200: requisitionReply, ...errorReplies, 422: errorReplies[400] };
const saveBody = z.intersection(
  RequisitionFormSchema as z.ZodTypeAny,
  z.looseObject({ deleted: z.boolean().optional(), version: z.number().int().optional() }),
);
const submitBody = z.intersection(
  RequisitionFormSchema as z.ZodTypeAny,
  z.looseObject({ id: z.string().min(1).max(64).optional(), version: z.number().int().optional() }),
);

/** A requisition as the API shows it, with the actions its summary may offer this user (spec 1 section 4). */
function present(deps: RequisitionDeps, user: SessionUser, doc: RequisitionDoc) {
  return { ...toApi(doc), actions: requisitionActionsFor(deps, user, doc) };
}

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

/** yyyyMMdd_HHmmss, the spec's export timestamp (UTC). */
export function exportStamp(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}_${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

export const EXPORT_MAX_ROWS = 50_000;

/** /portal/api/v1/testOrderForms: the requisition API (spec 1 section 7, spec 2 section 7). */
export async function testOrderFormRoutes(
  app: FastifyInstance,
  opts: { models: RequisitionModels; deps: RequisitionDeps },
) {
  const r = typed(app);
  const { deps, models } = opts;
  const tags = ['requisitions'];

  listRoutes(app, {
    path: '/testOrderForms',
    resource: requisitionsResource,
    model: models.Requisition,
    permission: 'VIEW_ORDERS_PAGE',
    scope: requisitionListScope,
    tag: 'requisitions',
    noun: 'requisitions',
    summary:
      'List requisitions (Draft and Submitted; deleted only with filter deleted=true and CAN_DELETE_TRF); each row carries the actions this user may take on it',
    map: (doc, user) => present(deps, user, doc),
  });

  r.get(
    '/testOrderForms/:id/timeline',
    {
      config: { permission: ['VIEW_ORDER_PAGE', 'VIEW_TEST_PAGE'] },
      schema: {
        tags,
        summary:
          "One order's history in time order: submission, TRF PDFs, test changes, reports, samples, billing",
        description:
          'Built from the events the platform publishes (projections/timeline.ts) plus the TRF PDFs attached to ' +
          'the requisition; an entry is on the timeline within a second or two of its event. Billing-case entries ' +
          'only with VIEW_BILLING_PAGE. Comments are in the ' +
          'messages service (GET /cns/api/v1/comments); the console merges them in. 404 outside the data scope.',
        params: idParams,
        response: {
          200: z.object({
            content: z.array(
              z.looseObject({
                id: z.string(),
                at: z.union([z.date(), z.string()]),
                family: z.string(),
                kind: z.string(),
              }),
            ),
          }),
          ...errorReplies,
        },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await models.Requisition.findOne(
        requisitionByIdFilter(user, req.params.id, { includeDeleted: true }),
        {
          attachments: 1,
          testRequisitionId: 1,
        },
      )
        .lean<Pick<RequisitionDoc, '_id' | 'attachments' | 'testRequisitionId'>>()
        .exec();
      if (!doc) throw notFound('Requisition not found');
      // billing cases (statuses, the billing system's errors) are billing staff's: without VIEW_BILLING_PAGE
      // (providers, lab staff) the timeline has none (docs/decisions.md "One timeline per order")
      const entries = await models.TimelineEntry.find({
        requisitionId: doc._id,
        ...(can(user, 'VIEW_BILLING_PAGE') ? {} : { family: { $ne: 'billing-case' } }),
      })
        .sort({ at: 1 })
        .lean()
        .exec();
      const trfs = (doc.attachments ?? [])
        .filter((a) => a.type === 'TRF')
        .map((a) => ({
          id: `attachment:${a.id}`,
          requisitionId: doc._id,
          at: a.createdOn,
          family: 'attachment',
          kind: 'trf-generated',
          testOrderId: null,
          sampleId: null,
          by: null,
          data: { name: a.name, attachmentId: a.id },
        }));
      const content = [...entries.map((e) => toApi(e)), ...trfs].sort(timelineOrder);
      return { content };
    },
  );

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
      config: { permission: 'CAN_DOWNLOAD_CSV' },
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
      let mapping = EXPORT_MAPPING;
      if (typeof qs.mapping === 'string' && qs.mapping) {
        const parsed = z
          .array(z.tuple([z.string().min(1).max(100), z.string().min(1).max(100)]))
          .min(1)
          .max(60)
          .safeParse(JSON.parse(qs.mapping));
        if (!parsed.success) {
          return reply.status(400).send({
            status: 400,
            code: 'BAD_REQUEST',
            message: 'Invalid mapping: expected a JSON list of [field, title] pairs',
          });
        }
        mapping = parsed.data;
      }
      const match = buildMatch(requisitionsResource, query, requisitionListScope(user, query));
      const sort = { [query.sort.path]: query.sort.order === 'asc' ? 1 : -1, _id: 1 } as Record<
        string,
        1 | -1
      >;
      const cursor = models.Requisition.find(match).sort(sort).limit(EXPORT_MAX_ROWS).lean().cursor();
      const lines: string[] = [mapping.map(([, title]) => csvCell(title)).join(',')];
      for await (const doc of cursor)
        lines.push(mapping.map(([field]) => csvCell(pick(doc, field))).join(','));
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="orders_${exportStamp()}.csv"`);
      return lines.join('\r\n') + '\r\n';
    },
  );

  r.post(
    '/testOrderForms/submit',
    {
      config: { permission: 'CAN_SUBMIT_TRF' },
      schema: {
        tags,
        summary:
          'Submit a signed requisition (the body is saved first); refused with the problems per block while incomplete',
        querystring: z.object({ createPdf: z.enum(['true', 'false']).optional() }),
        body: submitBody,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await submitRequisition(deps, user, req.body as any, req.query.createPdf === 'true');
      return present(deps, user, doc);
    },
  );

  r.post(
    '/testOrderForms/merge',
    {
      config: { permission: 'CAN_MERGE_TRF' },
      schema: {
        tags,
        summary: 'Merge a duplicate requisition (source) into the primary one (target)',
        querystring: z.object({
          sourceTrfId: z.string().min(1).max(64),
          targetTrfId: z.string().min(1).max(64),
        }),
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await mergeRequisitions(deps, user, req.query.sourceTrfId, req.query.targetTrfId);
      return present(deps, user, doc);
    },
  );

  r.put(
    '/testOrderForms/:id/billingReview',
    {
      config: { permission: 'CAN_EDIT_BILLING' },
      schema: {
        tags,
        summary: "Set a submitted requisition's billing review status (CAN_EDIT_BILLING; spec 2 section 6)",
        description:
          'Publishes requisition-changed (schemaVersion 3, change billing-review-changed) in the same write: the ' +
          'billing service keeps its cases in step (a case qualifies when its review is REVIEW_COMPLETE).',
        params: idParams,
        body: z.object({ status: z.enum(BILLING_REVIEW_STATUSES).nullable() }),
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await setBillingReview(deps, user, req.params.id, req.body.status);
      return present(deps, user, doc);
    },
  );

  r.get(
    '/testOrderForms/:id',
    {
      config: { permission: ['VIEW_ORDER_PAGE', 'VIEW_ORDERS_PAGE'] },
      schema: {
        tags,
        summary: 'Load a requisition (with the summary actions this user may take)',
        params: idParams,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await getRequisition(deps, user, req.params.id, { includeDeleted: true }));
    },
  );

  r.post(
    '/testOrderForms',
    {
      config: { permission: 'CAN_CREATE_TRF' },
      schema: { tags, summary: 'Create a draft requisition', body: saveBody, response: replies },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await createRequisition(deps, user, req.body as any));
    },
  );

  r.put(
    '/testOrderForms/:id',
    {
      config: { permission: ['CAN_CREATE_TRF', 'CAN_EDIT_TRF', 'CAN_DELETE_TRF', 'CAN_REVIEW_DIAGNOSIS'] },
      schema: {
        tags,
        summary:
          'Save a requisition: status DRAFT for a draft save (never changes a submitted one); deleted=true deletes; a clinical reviewer without Edit saves only the specimens and clinicalReviewStatus of a submitted one',
        params: idParams,
        body: saveBody,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await saveRequisition(deps, user, req.params.id, req.body as any));
    },
  );

  r.delete(
    '/testOrderForms/:id',
    {
      config: { permission: ['CAN_CREATE_TRF', 'CAN_DELETE_TRF'] },
      schema: { tags, summary: 'Soft-delete a requisition', params: idParams, response: replies },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await removeRequisition(deps, user, req.params.id));
    },
  );

  r.post(
    '/testOrderForms/:id/sign',
    {
      config: { permission: 'CAN_SIGN_TRF' },
      schema: {
        tags,
        summary:
          "Sign a draft with one's own login password (a wrong one counts toward the lockout); records an approval",
        params: idParams,
        body: z.object({ password: z.string().min(1, 'This field is required').max(200) }),
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await signRequisition(deps, user, req.params.id, req.body.password));
    },
  );

  r.post(
    '/testOrderForms/:id/copy',
    {
      config: { permission: 'CAN_CREATE_TRF' },
      schema: {
        tags,
        summary: 'Copy a submitted requisition into a new draft',
        params: idParams,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await copyRequisition(deps, user, req.params.id));
    },
  );

  r.post(
    '/testOrderForms/:id/subsequentOrder',
    {
      config: { permission: 'CAN_CREATE_TRF' },
      schema: {
        tags,
        summary: 'One-click subsequent order from a submitted requisition; returns the new id',
        params: idParams,
        body: z
          .object({
            collectionDate: z
              .string()
              .regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid date')
              .nullable()
              .optional(),
            collectionMode: z.string().max(100).nullable().optional(),
          })
          .optional(),
        response: { 200: z.object({ id: z.string(), testRequisitionId: z.string() }), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await subsequentOrder(deps, user, req.params.id, req.body ?? {});
      return { id: doc._id, testRequisitionId: doc.testRequisitionId! };
    },
  );
}

/** /oms/api/v1/testOrderForms/{id}: a requisition loaded for its samples (spec 2 section 7). */
export async function omsTestOrderFormRoutes(app: FastifyInstance, opts: { deps: RequisitionDeps }) {
  const r = typed(app);
  r.get(
    '/testOrderForms/:id',
    {
      config: { permission: ['VIEW_ORDER_PAGE', 'VIEW_TEST_PAGE', 'VIEW_SAMPLE_ACTIONS'] },
      schema: {
        tags: ['requisitions'],
        summary: 'Load a requisition for its samples',
        params: idParams,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return toApi(await getRequisition(opts.deps, user, req.params.id));
    },
  );
}
