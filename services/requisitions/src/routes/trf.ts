import { requisitionByIdFilter } from '../resource';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { can, errorReplies, idParams, notFound, requireUser, typed } from '@onco/platform';
import type { RequisitionDoc } from '../models/requisition';
import type { RequisitionModels } from '../models';
import type { TrfQueue } from '../workers/trf-queue';
import { sendBlob } from '../attachments';
import { AUDIT_PROJECTION, auditRequisition } from './audit';

/** The PDF viewer's empty text (spec 1 section 2, spec 2 section 2.4). */
export const MSG_NO_PDF = 'No PDF File Available.';

/**
 * GET /portal/api/v1/testOrderForms/{id}/trf (Print, spec 1 section 4 / spec 2 section 2.3): the latest
 * non-deleted TRF attachment of a requisition the user can see, shown inline; 404 'No PDF File Available.'
 * when there is none (a draft, or the PDF not generated yet). A deleted requisition only with CAN_DELETE_TRF.
 */
export async function trfPrintRoutes(
  app: FastifyInstance,
  opts: { models: RequisitionModels; trf: TrfQueue },
) {
  const r = typed(app);
  const { Requisition } = opts.models;
  r.get(
    '/testOrderForms/:id/trf',
    {
      config: {
        permission: ['VIEW_ORDER_PAGE', 'VIEW_ORDERS_PAGE'],
        audit: { record: 'trf', action: 'download' },
      },
      schema: {
        tags: ['requisitions'],
        summary: "The requisition's latest TRF PDF (Print)",
        params: idParams,
        response: { 200: z.unknown().describe('The PDF (application/pdf), inline'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      // the data scope (and, without CAN_DELETE_TRF, the soft delete) in the query
      const trf = await Requisition.findOne(
        requisitionByIdFilter(user, req.params.id, { includeDeleted: can(user, 'CAN_DELETE_TRF') }),
        { _id: 1, ...AUDIT_PROJECTION },
      )
        .lean<Pick<RequisitionDoc, '_id' | 'patient' | 'account'>>()
        .exec();
      if (!trf) throw notFound('Requisition not found');
      const doc = await opts.trf.latest(trf._id);
      // the entry names the PDF and the requisition's patient
      auditRequisition(req, trf, doc?._id ?? trf._id);
      if (!doc) throw notFound(MSG_NO_PDF);
      return sendBlob(app.platform, reply, doc, 'inline');
    },
  );
}
