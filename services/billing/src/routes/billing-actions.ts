import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { can, conflict, errorReplies, forbidden, idParams, requireUser, typed } from '@onco/platform';
import type { BillingModels } from '../models';
import { findCase, updateBillingCode, updateTimePoint, uploadDocumentsAgain } from '../use-cases';
import type { BillingDocumentsQueue } from '../submission/documents-queue';
import { roundOf } from '../submission/documents-job';
import { billingCaseOut, caseReply } from './billing-action-parts';
import { registerBulkActionRoutes } from './billing-bulk-actions';
import { registerSpecialistSearchRoute } from './billing-specialists';

/**
 * The billing actions of spec 3 section 7.3 under /bis/api/v1: one case with its history, Update Billing Code,
 * Assign Billing User, Update Billing Status, Update Timepoint, and the billing specialist search. Every change
 * is a use case of ../use-cases (changeCase underneath): one conditional write with a history entry and the billing-case event.
 *
 * Bulk actions (assign, status) are all or none: every id is read and checked first; an unknown or out-of-scope
 * id is 404 and a refused case is 409 (with the refusal per id in `details`), and then nothing changes. Only a
 * concurrent change between the check and the writes can still refuse a case (409; the others stay changed).
 */

export async function billingActionRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; documents: BillingDocumentsQueue },
) {
  const r = typed(app);
  const { models, documents } = opts;
  const nudge = () => app.platform.nudgeOutbox();

  r.get(
    '/billingCases/:id',
    {
      config: {
        permission: 'VIEW_BILLING_PAGE',
        audit: {
          record: 'billing-case',
          subject: (c: {
            id: string;
            patient?: { id?: string | null } | null;
            account?: { id?: string | null } | null;
          }) => ({
            id: c.id,
            patientId: c.patient?.id,
            accountIds: [c.account?.id],
          }),
        },
      },
      schema: {
        tags: ['billing'],
        summary: 'One billing case with its history, newest first (404 outside the data scope)',
        params: idParams,
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => billingCaseOut(await findCase(opts, requireUser(req), req.params.id)),
  );

  r.post(
    '/billing/:id/billingCode/:code',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Update Billing Code of one case (CAN_UPDATE_BILLING_CODE); the case may qualify',
        params: z.object({
          id: z.string().min(1).max(64),
          code: z
            .string()
            .trim()
            .min(1, 'Billing Code is required')
            .max(100)
            .regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, 'A billing code is letters, digits, dots and dashes.'),
        }),
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!can(user, 'CAN_UPDATE_BILLING_CODE')) throw forbidden();
      const done = await updateBillingCode(opts, user, req.params.id, req.params.code);
      nudge();
      return billingCaseOut(done);
    },
  );

  registerBulkActionRoutes(app, { models, nudge, documents });

  r.post(
    '/billing/:id/documents',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: "Upload documents again: the next round of the claim's report and TRF upload (ours)",
        description:
          'Only after DOC_UPLOAD_PARTIAL or DOC_UPLOAD_FAILED (409 otherwise). The documents the billing system ' +
          'already took are not sent again; the round ends in DOC_UPLOAD_SUCCEEDED, _PARTIAL or _FAILED. 409 ' +
          'too when document uploads are turned off (BILLING_DOCUMENTS).',
        params: idParams,
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => {
      if (!documents.enabled)
        throw conflict('Document uploads to the billing system are turned off (BILLING_DOCUMENTS)');
      const done = await uploadDocumentsAgain({ models }, requireUser(req), req.params.id);
      nudge();
      await documents.add({
        caseId: done._id,
        generation: done.submission?.generation ?? 0,
        round: roundOf(done),
      });
      return billingCaseOut(done);
    },
  );

  r.post(
    '/billing/:id/timePoint/:timePoint',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Update Timepoint of one case (a subsequent order with a complete or amended report)',
        params: z.object({
          id: z.string().min(1).max(64),
          timePoint: z.string().trim().min(1, 'Timepoint is required').max(100),
        }),
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await updateTimePoint(opts, user, req.params.id, req.params.timePoint);
      nudge();
      return billingCaseOut(done);
    },
  );

  registerSpecialistSearchRoute(app, { models });
}
