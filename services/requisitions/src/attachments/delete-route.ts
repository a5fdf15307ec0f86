/** PUT /attachments/{id} {deleted: true}: a soft delete (off the requisition's list, record kept). */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { withOutbox } from '@onco/events';
import {
  AppError,
  auditTrailOf,
  badRequest,
  can,
  errorReplies,
  forbidden,
  idParams,
  notFound,
  requireUser,
  typed,
} from '@onco/platform';
import { unlinkAttachment, type AttachmentDoc } from '../models/attachment';
import { requisitionOf } from '../routes/audit';
import { visibleAttachment, type AttachmentRouteDeps } from './access';
import { attachmentChange } from './audit';
import { REQUISITION_WRITE, attachmentOut, attachmentToApi, attachmentEvent } from './shape';

export function registerDeleteRoute(app: FastifyInstance, { ctx, models }: AttachmentRouteDeps) {
  const r = typed(app);
  const { Attachment, Requisition } = models;
  r.put(
    '/attachments/:id',
    {
      config: { permission: [...REQUISITION_WRITE, 'VIEW_BOX_PAGE'] },
      schema: {
        tags: ['attachments'],
        summary: 'Remove an attachment ({deleted: true}: a soft delete; off the requisition, record kept)',
        params: idParams,
        body: z.looseObject({ deleted: z.boolean() }),
        response: { 200: attachmentOut, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await visibleAttachment(models, user, req.params.id);
      if (req.body.deleted !== true)
        throw badRequest('Only {"deleted": true} is supported on an attachment', { field: 'deleted' });
      const requisitionId = doc.testOrderForm?.id ?? null;
      if (requisitionId) {
        if (doc.type === 'TRF' ? !can(user, 'CAN_DELETE_TRF') : !REQUISITION_WRITE.some((p) => can(user, p)))
          throw forbidden();
      } else {
        if (!can(user, 'VIEW_BOX_PAGE')) throw forbidden();
        if (doc.status !== 'UPLOADED')
          throw new AppError(409, 'CONFLICT', 'Only an attachment with status UPLOADED can be deleted');
      }
      const now = new Date();
      // the entry names the patient of the requisition the file is attached to
      const patientId = (await requisitionOf(models, requisitionId))?.patient?.id ?? null;
      // conditional on what was checked: not deleted yet, and (Attachment Box) still UPLOADED; committed with
      // its audit entry (`delete`)
      const updated: AttachmentDoc | null = await auditTrailOf(ctx).update(
        Attachment,
        { _id: doc._id, deleted: false, ...(requisitionId ? {} : { status: 'UPLOADED' }) },
        withOutbox(
          { $set: { deleted: true, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } },
          attachmentEvent(doc, 'deleted', user, now),
        ),
        attachmentChange(patientId),
      );
      if (!updated) {
        if (!requisitionId && (await Attachment.exists({ _id: doc._id, deleted: false })))
          throw new AppError(409, 'CONFLICT', 'Only an attachment with status UPLOADED can be deleted');
        throw notFound('Attachment not found');
      }
      ctx.nudgeOutbox();
      if (requisitionId) await unlinkAttachment(Requisition, requisitionId, doc._id, user.id);
      req.log.info({ attachmentId: doc._id, requisitionId }, 'attachment deleted');
      return attachmentToApi(updated);
    },
  );
}
