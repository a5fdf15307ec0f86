import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { fieldView } from '@onco/domain';
import { can, errorReplies, idParams, notFound, requireUser, toApi, typed } from '@onco/platform';
import type { RequisitionDoc } from '../../models';
import { timelineOrder } from '../../projections/timeline';
import { requisitionByIdFilter } from '../../resource';
import { AUDIT_PROJECTION, auditRequisition } from '../audit';
import { tags, type TestOrderFormRouteOptions } from './shapes';

/** GET /testOrderForms/{id}/timeline: one order's history, from the timeline entries and its TRF PDFs. */
export function registerTimelineRoute(app: FastifyInstance, { models }: TestOrderFormRouteOptions) {
  const r = typed(app);
  r.get(
    '/testOrderForms/:id/timeline',
    {
      config: { permission: ['VIEW_ORDER_PAGE', 'VIEW_TEST_PAGE'], audit: { record: 'timeline' } },
      schema: {
        tags,
        summary:
          "One order's history in time order: submission, TRF PDFs, files added later, test changes, reports, samples, billing",
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
          ...AUDIT_PROJECTION,
        },
      )
        .lean<Pick<RequisitionDoc, '_id' | 'attachments' | 'testRequisitionId' | 'patient' | 'account'>>()
        .exec();
      if (!doc) throw notFound('Requisition not found');
      auditRequisition(req, doc);
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
      // files added after the submission (the order summary's Attachments tab): who attached what, and when
      const submittedAt = entries.find((e) => e.family === 'requisition-submitted')?.at;
      const late = submittedAt
        ? (doc.attachments ?? []).filter(
            (a) => a.type !== 'TRF' && +new Date(a.createdOn) > +new Date(submittedAt),
          )
        : [];
      const attachedBy = new Map(
        late.length
          ? (
              await models.Attachment.find({ _id: { $in: late.map((a) => a.id) } }, { attachedBy: 1 })
                .lean<Array<{ _id: string; attachedBy: { id: string | null; name: string | null } | null }>>()
                .exec()
            ).map((a) => [a._id, a.attachedBy])
          : [],
      );
      const added = late.map((a) => ({
        id: `attachment:${a.id}`,
        requisitionId: doc._id,
        at: a.createdOn,
        family: 'attachment',
        kind: 'attachment-added',
        testOrderId: null,
        sampleId: null,
        by: attachedBy.get(a.id) ?? null,
        data: { name: a.name, type: a.type, attachmentId: a.id },
      }));
      // a due date or LIMS project the user may not see is not on their timeline either (fieldView)
      const view = fieldView(user.grantedAuthorities);
      const seen = entries.flatMap((e) => view.timelineEntry(toApi(e)) ?? []);
      const content = [...seen, ...trfs, ...added].sort(timelineOrder);
      return { content };
    },
  );
}
