import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES } from '@onco/domain';
import {
  AppError,
  actorOf,
  badRequest,
  conflict,
  errorReplies,
  idParams,
  messageReply,
  requireUser,
  typed,
  type SessionUser,
} from '@onco/platform';
import { changeCase, findCase } from '../case-service';
import type { BillingModels } from '../models';
import type { BillingSubmitQueue } from './queue';
import { checkClaim, submitRefusal, type ClaimProblem, type DiagnosisCodeCatalog } from './rules';

export const SUBMITTED_MESSAGE = BILLING_MESSAGES.submitted;

/** The most ids one bulk submit takes (a page of the list at its largest size, and then some). */
export const BULK_SUBMIT_MAX = 500;
/** How many cases of one bulk submit are queued at once. */
const BULK_SUBMIT_PARALLEL = 8;

/**
 * Queue one case for submission: one write puts it in QUEUED_FOR_SUBMISSION with a new submission generation
 * (history entry and billing-case event), after the section 4.3 rule (409) and the pre-submit checks (400 with
 * the list of what to fix, `details.problems`); then the generation's billing-submit job is added.
 */
export async function submitCase(
  opts: { models: BillingModels; queue: BillingSubmitQueue; catalog: DiagnosisCodeCatalog },
  user: SessionUser,
  id: string,
): Promise<number> {
  const { models, queue, catalog } = opts;
  let problems: ClaimProblem[] = [];
  const after = await changeCase(
    models,
    async () => {
      const doc = await findCase(models, user, id);
      problems = await checkClaim(doc, catalog);
      return doc;
    },
    (doc) => {
      const refusal = submitRefusal(doc);
      if (refusal) throw conflict(refusal, { caseStatus: doc.caseStatus });
      if (problems.length)
        throw badRequest(BILLING_MESSAGES.cannotSubmitUntil(problems.map((p) => p.message)), { problems });
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
  // the case is committed QUEUED_FOR_SUBMISSION: if this add fails (Redis down), the requeue sweep adds the job
  await queue.add({ caseId: id, generation });
  return generation;
}

const bulkResult = z.object({
  id: z.string(),
  submitted: z.boolean(),
  /** 'Submitted successfully', or the reason it was not (404, 409 or the pre-submit checks' text) */
  message: z.string(),
  problems: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});

/**
 * Submit a billing case to the billing system (spec 3 sections 4.3 and 7.3): `POST /bis/api/v1/billing/submit/:id`.
 * One write puts the case in QUEUED_FOR_SUBMISSION with a new submission generation (history entry and
 * billing-case event), then the `billing-submit` job of that generation is added (queue.ts).
 */
export async function billingSubmitRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; queue: BillingSubmitQueue; catalog: DiagnosisCodeCatalog },
) {
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
          "subsequent order's timepoint, the billing type, a payor for insurance-type billing, a billable ICD-10 " +
          "code, the patient's address for Medicare). Otherwise the case becomes QUEUED_FOR_SUBMISSION and the " +
          'submission worker sends the claim; the answer is "Submitted successfully".',
        params: idParams,
        body: z.unknown().optional(),
        response: { 200: messageReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const generation = await submitCase(opts, user, req.params.id);
      app.platform.nudgeOutbox();
      req.log.info({ billingCaseId: req.params.id, generation }, 'billing case queued for submission');
      return { message: SUBMITTED_MESSAGE };
    },
  );

  typed(app).post(
    '/billing/submit',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Submit several billing cases (the needs-attention view resubmits in bulk)',
        description:
          'Body: a list of billing case ids (1 to 500, distinct). Each case is submitted on its own, exactly as ' +
          'POST /billing/submit/{id} would: the reply reports per id whether it was queued and, if not, why ' +
          '(unknown or out of scope, a status that forbids it, or the pre-submit checks with their problems). ' +
          'Decision: unlike the list actions (all or none), one case that cannot go does not hold back the others, ' +
          'since each claim stands alone.',
        body: z.array(z.string().min(1)).min(1).max(BULK_SUBMIT_MAX),
        response: {
          200: z.object({ message: z.string(), submitted: z.number(), results: z.array(bulkResult) }),
          ...errorReplies,
        },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const ids = [...new Set(req.body)];
      const results: z.infer<typeof bulkResult>[] = new Array(ids.length);
      const one = async (i: number) => {
        const id = ids[i];
        try {
          await submitCase(opts, user, id);
          results[i] = { id, submitted: true, message: SUBMITTED_MESSAGE };
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          const problems = (err.details as { problems?: ClaimProblem[] } | undefined)?.problems;
          results[i] = { id, submitted: false, message: err.message, ...(problems ? { problems } : {}) };
        }
      };
      // the cases are independent (one document each): BULK_SUBMIT_PARALLEL at a time, results in the ids' order
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(BULK_SUBMIT_PARALLEL, ids.length) }, async () => {
          while (next < ids.length) await one(next++);
        }),
      );
      const submitted = results.filter((r) => r.submitted).length;
      if (submitted) app.platform.nudgeOutbox();
      req.log.info({ submitted, of: ids.length }, 'billing cases queued for submission (bulk)');
      return { message: BILLING_MESSAGES.bulkSubmitted(submitted, ids.length), submitted, results };
    },
  );
}
