import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorReplies, idParams, requireUser, typed } from '@onco/platform';
import {
  BILLING_REVIEW_STATUSES,
  CLINICAL_REVIEW_STATUSES,
  FINANCIAL_ASSISTANCE_OUTCOMES,
} from '@onco/domain';
import {
  copyRequisition,
  mergeRequisitions,
  setBillingReview,
  setClinicalReview,
  setFinancialAssistance,
  signRequisition,
  submitRequisition,
  subsequentOrder,
} from '../../use-cases';
import { present, replies, submitBody, tags, type TestOrderFormRouteOptions } from './shapes';

/**
 * POST /testOrderForms/submit, POST /testOrderForms/merge, PUT /testOrderForms/{id}/billingReview and
 * PUT /testOrderForms/{id}/clinicalReview.
 */
export function registerSubmitRoutes(app: FastifyInstance, { deps }: TestOrderFormRouteOptions) {
  const r = typed(app);
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
          'billing service keeps its cases in step (a case qualifies when its review is REVIEW_COMPLETE). ' +
          'REVIEW_COMPLETE is refused (409, details.reasons) while the Medicare warning shows (Medicare, a NeXT ' +
          'Personal Dx test, and a missing drug name, stage or ICD-10 code) or the primary billing is incomplete.',
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

  r.put(
    '/testOrderForms/:id/clinicalReview',
    {
      config: { permission: 'CAN_REVIEW_DIAGNOSIS' },
      schema: {
        tags,
        summary:
          "Set a submitted requisition's clinical review status (CAN_REVIEW_DIAGNOSIS; spec 1 section 4)",
        description:
          'Publishes requisition-changed (change clinical-review-changed, with the status before and after) in ' +
          'the same write: the order timeline shows it and the lab follows it onto the tests. DISQUALIFIED ' +
          "removes the due dates of the order's tests (each a test history entry and a test-status event). " +
          'The same status again changes nothing; a draft or deleted order is a 409.',
        params: idParams,
        body: z.object({ status: z.enum(CLINICAL_REVIEW_STATUSES).nullable() }),
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await setClinicalReview(deps, user, req.params.id, req.body.status);
      return present(deps, user, doc);
    },
  );

  r.put(
    '/testOrderForms/:id/financialAssistance',
    {
      config: { permission: 'CAN_EDIT_BILLING' },
      schema: {
        tags,
        summary:
          "Record a submitted order's financial assistance outcome (CAN_EDIT_BILLING; the financial assistance account's orders)",
        description:
          "The outcome of the patient's financial assistance application (spec 3: approved up to $100, $200, $250 " +
          'or $295, full coverage, denied, missing household members, missing income, missing both, patient ' +
          'refused, paper copy not yet processed), with who and when; null clears it. Only an order of the ' +
          'account FINANCIAL_ASSISTANCE_ACCOUNT names has one (another is a 409), submitted and not deleted. ' +
          'Publishes requisition-changed (schemaVersion 7, change financial-assistance-changed) in the same write.',
        params: idParams,
        body: z.object({ outcome: z.enum(FINANCIAL_ASSISTANCE_OUTCOMES).nullable() }),
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      const doc = await setFinancialAssistance(deps, user, req.params.id, req.body.outcome);
      return present(deps, user, doc);
    },
  );
}

/** POST /testOrderForms/{id}/sign, /copy and /subsequentOrder. */
export function registerSignAndCopyRoutes(app: FastifyInstance, { deps }: TestOrderFormRouteOptions) {
  const r = typed(app);
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
