import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES } from '@onco/domain';
import {
  actorOf,
  badRequest,
  conflict,
  errorReplies,
  idParams,
  messageReply,
  requireUser,
  typed,
} from '@onco/platform';
import { changeCase, findCase } from '../case-service';
import type { BillingModels } from '../models';
import type { BillingSubmitQueue } from './queue';
import { claimProblems, submitRefusal } from './rules';

export const SUBMITTED_MESSAGE = BILLING_MESSAGES.submitted;

/**
 * Submit a billing case to the billing system (spec 3 sections 4.3 and 7.3): `POST /bis/api/v1/billing/submit/:id`.
 * One write puts the case in QUEUED_FOR_SUBMISSION with a new submission generation (history entry and
 * billing-case event), then the `billing-submit` job of that generation is added (queue.ts).
 */
export async function billingSubmitRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; queue: BillingSubmitQueue },
) {
  const { models, queue } = opts;
  typed(app).post(
    '/billing/submit/:id',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Submit a billing case to the billing system',
        description:
          "Empty body. 404 when the case is unknown or outside the caller's scope; 409 with the reason when spec 3 " +
          'section 4.3 forbids it (case status, test status not REPORT_COMPLETE/REPORT_AMENDED, review status not ' +
          'REVIEW_COMPLETE) or a submission is in flight; 400 with `details.problems` (field and message) when the ' +
          'case lacks what a claim needs (billing code, test #, test type, patient, account, ordering provider, a ' +
          "subsequent order's timepoint). Otherwise the case becomes QUEUED_FOR_SUBMISSION and the submission " +
          'worker sends the claim; the answer is "Submitted successfully".',
        params: idParams,
        body: z.unknown().optional(),
        response: { 200: messageReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const id = req.params.id;
      const after = await changeCase(
        models,
        () => findCase(models, user, id),
        (doc) => {
          const refusal = submitRefusal(doc);
          if (refusal) throw conflict(refusal, { caseStatus: doc.caseStatus });
          const problems = claimProblems(doc);
          if (problems.length)
            throw badRequest(
              `The billing case cannot be submitted until these are fixed: ${problems.map((p) => p.message).join('; ')}.`,
              { problems },
            );
          return {
            set: {
              caseStatus: 'QUEUED_FOR_SUBMISSION',
              errorDetails: null,
              submission: {
                generation: (doc.submission?.generation ?? 0) + 1,
                attempts: 0,
                lastError: null,
                queuedOn: new Date(),
                queuedBy: user.id,
              },
            },
          };
        },
        actorOf(user),
      );
      const generation = after.submission!.generation;
      await queue.add({ caseId: id, generation });
      app.platform.nudgeOutbox();
      req.log.info({ billingCaseId: id, generation }, 'billing case queued for submission');
      return { message: SUBMITTED_MESSAGE };
    },
  );
}
