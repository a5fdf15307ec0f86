import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_MESSAGES } from '@onco/domain';
import {
  AppError,
  actorOf,
  auditTrailOf,
  badRequest,
  conflict,
  currentActor,
  inTransaction,
  errorReplies,
  idParams,
  messageReply,
  notFound,
  requireUser,
  typed,
  type SessionUser,
} from '@onco/platform';
import {
  billingCaseChangeInput,
  billingScope,
  caseWrite,
  changeCase,
  findCase,
  type CaseDecision,
  type CaseWrite,
} from '../use-cases';
import type { BillingCaseDoc, BillingModels } from '../models';
import type { BillingSubmitQueue } from './queue';
import { submitJobData } from './submit-job';
import {
  checkClaim,
  claimProblems,
  submitRefusal,
  type ClaimProblem,
  type DiagnosisCodeCatalog,
} from './rules';

export const SUBMITTED_MESSAGE = BILLING_MESSAGES.submitted;

/** The most ids one bulk submit takes (a page of the list at its largest size, and then some). */
export const BULK_SUBMIT_MAX = 500;
/** How many cases of one bulk submit are read, checked and queued together (one read, one write, one add). */
const BULK_SUBMIT_CHUNK = 100;

type SubmitOpts = { models: BillingModels; queue: BillingSubmitQueue; catalog: DiagnosisCodeCatalog };

/**
 * The decision that queues a case (section 4.3's rule, 409; then the pre-submit checks' problems, 400 with the
 * list of what to fix): QUEUED_FOR_SUBMISSION with a new submission generation.
 */
function queueDecision(doc: BillingCaseDoc, problems: ClaimProblem[], user: SessionUser): CaseDecision {
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
}

/**
 * Queue one case for submission: one write puts it in QUEUED_FOR_SUBMISSION with a new submission generation
 * (history entry and billing-case event), after the section 4.3 rule (409) and the pre-submit checks (400 with
 * the list of what to fix, `details.problems`); then the generation's billing-submit job is added.
 */
export async function submitCase(opts: SubmitOpts, user: SessionUser, id: string): Promise<number> {
  const { models, queue, catalog } = opts;
  let problems: ClaimProblem[] = [];
  const after = await changeCase(
    { models },
    async () => {
      const doc = await findCase({ models }, user, id);
      problems = await checkClaim(doc, catalog);
      return doc;
    },
    (doc) => queueDecision(doc, problems, user),
    actorOf(user),
  );
  // the case is committed QUEUED_FOR_SUBMISSION: if this add fails (Redis down), the requeue sweep adds the job
  await queue.add(submitJobData(after));
  return after.submission!.generation;
}

const bulkResult = z.object({
  id: z.string(),
  submitted: z.boolean(),
  /** 'Submitted successfully', or the reason it was not (404, 409 or the pre-submit checks' text) */
  message: z.string(),
  problems: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type BulkSubmitResult = z.infer<typeof bulkResult>;

const refused = (id: string, err: AppError): BulkSubmitResult => {
  const problems = (err.details as { problems?: ClaimProblem[] } | undefined)?.problems;
  return { id, submitted: false, message: err.message, ...(problems ? { problems } : {}) };
};

/**
 * One bulk write of decided changes and, in the same transaction, the audit entry of each case it changed (the
 * case as read and as caseWrite says it will be: the write is conditional on the version read). Answers the ids
 * of the cases written; the others lost a race.
 */
async function bulkWriteAudited(
  models: BillingModels,
  writes: { w: CaseWrite; before: BillingCaseDoc }[],
): Promise<Set<string>> {
  const trail = auditTrailOf({ mongo: models.BillingCase.db });
  const actor = currentActor();
  const landed = await inTransaction(models.BillingCase.db, async (session) => {
    const res = await models.BillingCase.bulkWrite(
      writes.map(({ w }) => ({ updateOne: { filter: w.filter, update: w.update } })),
      { ordered: false, session },
    );
    let ok = new Set(writes.map(({ w }) => w.after._id));
    if (res.modifiedCount !== writes.length) {
      // some lost a race: which landed is told by their history entries (each write pushed one of its own)
      const entryIds = writes.map(({ w }) => w.after.caseHistory.at(-1)!.id);
      const found = await models.BillingCase.find(
        { _id: { $in: writes.map(({ w }) => w.after._id) }, 'caseHistory.id': { $in: entryIds } },
        { _id: 1 },
        { session },
      )
        .lean<Pick<BillingCaseDoc, '_id'>[]>()
        .exec();
      ok = new Set(found.map((d) => d._id));
    }
    await trail.recordIn(
      session,
      writes
        .filter(({ w }) => ok.has(w.after._id))
        .map(({ w, before }) => billingCaseChangeInput(before, w.after)),
      actor,
    );
    return ok;
  });
  trail.recorded();
  return landed;
}

/**
 * Queue several cases, each exactly as submitCase would (same rule, same checks, same write, same job), with a
 * result per id in the ids' order. Per chunk of BULK_SUBMIT_CHUNK: one read of the cases (in the caller's scope),
 * one look-up of their ICD-10 codes, one bulk write of the conditional updates (each on the version read, with its
 * history entry and event) and one add of their jobs. A case whose update lost a race (changed since the read) is
 * submitted again on its own by submitCase, which re-reads and re-decides. The chunk's bulk write and the audit
 * entries of the cases it changed (docs/audit.md "Changes") commit in one transaction.
 */
export async function submitCases(
  opts: SubmitOpts,
  user: SessionUser,
  ids: readonly string[],
): Promise<BulkSubmitResult[]> {
  const { models, queue, catalog } = opts;
  const by = actorOf(user);
  const results: BulkSubmitResult[] = new Array(ids.length);
  for (let from = 0; from < ids.length; from += BULK_SUBMIT_CHUNK) {
    const chunk = ids.slice(from, from + BULK_SUBMIT_CHUNK);
    const docs = await models.BillingCase.find(
      { _id: { $in: chunk }, deleted: false, ...billingScope(user) },
      { outbox: 0 },
    )
      .lean<BillingCaseDoc[]>()
      .exec();
    const byId = new Map(docs.map((d) => [d._id, d]));
    const codes = [...new Set(docs.flatMap((d) => d.claimInfo?.diagnosisCodes ?? []))];
    const invalid = new Set(codes.length ? await catalog.invalidCodes(codes) : []);
    const at = new Date();
    const writes: { i: number; w: CaseWrite; before: BillingCaseDoc }[] = [];
    chunk.forEach((id, k) => {
      const i = from + k;
      const doc = byId.get(id);
      try {
        if (!doc) throw notFound(`Billing case ${id} was not found.`);
        const problems = claimProblems(
          doc,
          (doc.claimInfo?.diagnosisCodes ?? []).filter((c) => invalid.has(c)),
        );
        writes.push({ i, w: caseWrite(doc, queueDecision(doc, problems, user), by, at)!, before: doc });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        results[i] = refused(id, err);
      }
    });
    if (!writes.length) continue;
    const landed = await bulkWriteAudited(models, writes);
    const applied = writes.filter(({ w }) => landed.has(w.after._id));
    for (const { i } of writes.filter(({ w }) => !landed.has(w.after._id))) {
      const id = ids[i];
      try {
        await submitCase(opts, user, id);
        results[i] = { id, submitted: true, message: SUBMITTED_MESSAGE };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        results[i] = refused(id, err);
      }
    }
    // the cases are committed QUEUED_FOR_SUBMISSION: if this add fails (Redis down), the requeue sweep adds the jobs
    if (applied.length) await queue.addMany(applied.map(({ w }) => submitJobData(w.after)));
    for (const { i } of applied) results[i] = { id: ids[i], submitted: true, message: SUBMITTED_MESSAGE };
  }
  return results;
}

/**
 * Submit a billing case to the billing system (spec 3 sections 4.3 and 7.3): `POST /bis/api/v1/billing/submit/:id`.
 * One write puts the case in QUEUED_FOR_SUBMISSION with a new submission generation (history entry and
 * billing-case event), then the `billing-submit` job of that generation is added (queue.ts).
 */
export async function billingSubmitRoutes(app: FastifyInstance, opts: SubmitOpts) {
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
      const results = await submitCases(opts, user, ids);
      const submitted = results.filter((r) => r.submitted).length;
      if (submitted) app.platform.nudgeOutbox();
      req.log.info({ submitted, of: ids.length }, 'billing cases queued for submission (bulk)');
      return { message: BILLING_MESSAGES.bulkSubmitted(submitted, ids.length), submitted, results };
    },
  );
}
