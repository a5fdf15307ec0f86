import type { Job } from 'bullmq';
import type { PlatformContext } from '@onco/platform';
import { changeCase, SYSTEM_ACTOR, type CaseDecision } from '../use-cases';
import type { BillingCaseDoc, BillingModels, BillingSubmission } from '../models';
import { sendClaim, type SendDeps } from './send';
import {
  BILLING_SUBMIT_QUEUE,
  RETRYING,
  SENDING,
  SubmissionRetry,
  type BillingSubmitJobData,
  type BillingSubmitResult,
} from './submit-job';
import { markSubmitted, type UncastWrites } from './writes';
import type { BillingDocumentsQueue } from './documents-queue';

/** What the billing-submit job's processor needs (wired by defineBillingSubmitQueue). */
export interface SubmitJobDeps extends SendDeps, UncastWrites {
  ctx: PlatformContext;
  models: BillingModels;
  /** BILLING_SUBMIT_ATTEMPTS: a job's attempts when its options do not say */
  attempts: number;
  /** the claim's documents: their round starts once the billing system took the claim */
  documents?: Pick<BillingDocumentsQueue, 'start'>;
}

export type SubmitJob = Pick<Job<BillingSubmitJobData>, 'data' | 'attemptsMade' | 'opts'>;

async function readCase(models: BillingModels, id: string) {
  const doc = await models.BillingCase.findById(id, { outbox: 0 }).lean<BillingCaseDoc>().exec();
  if (!doc) throw new Error(`billing case ${id} is gone`);
  return doc;
}

/**
 * The conditional steps of one job on its case (each one changeCase), starting from `current` as the job found
 * it; `stale()` says whether a step found the case no longer this generation's or no longer being sent.
 */
function caseSteps(deps: SubmitJobDeps, caseId: string, generation: number, current: BillingCaseDoc) {
  const { models, writeUncast } = deps;
  // a decision only for this generation while it is still being sent; anything else leaves the case alone
  const ours = (d: BillingCaseDoc) =>
    d.submission?.generation === generation && SENDING.includes(d.caseStatus) && !d.deleted;
  let stale = false;
  // the case as this job last read or wrote it: each step decides on it first and reads again only when its
  // conditional write lost (someone changed the case meanwhile), which saves a read per step
  let known: BillingCaseDoc | null = current;
  const readKnownFirst = async () => {
    const d = known ?? (await readCase(models, caseId));
    known = null;
    return d;
  };
  const step = async (decide: (d: BillingCaseDoc) => CaseDecision) => {
    const after = await changeCase(
      { models },
      readKnownFirst,
      (d) => {
        if (!ours(d)) {
          stale = true;
          return { noop: true };
        }
        return decide(d);
      },
      SYSTEM_ACTOR,
      { write: writeUncast },
    );
    known = after;
    return after;
  };
  return { step, stale: () => stale };
}

/** The billing-submit job's processor (submit-job.ts describes what it does). */
export async function execSubmitJob(deps: SubmitJobDeps, job: SubmitJob): Promise<BillingSubmitResult> {
  const { ctx, models } = deps;
  const { caseId, generation } = job.data;
  const attempt = job.attemptsMade + 1;
  const lastAttempt = attempt >= (job.opts.attempts ?? deps.attempts);
  const log = ctx.logger.child({ queue: BILLING_SUBMIT_QUEUE, caseId, generation, attempt });

  // the first send of a case Submit queued: SUBMITTED_TO_XIFIN in one command; anything else reads the case
  // (a retry reads it: the case is still QUEUED_FOR_SUBMISSION then only after an unexpected error)
  const marked =
    job.data.queued && job.attemptsMade === 0
      ? await markSubmitted(deps, caseId, generation, job.data.queued)
      : null;
  const current =
    marked ?? (await models.BillingCase.findById(caseId, { outbox: 0 }).lean<BillingCaseDoc>().exec());
  const skip = (reason: BillingSubmitResult['reason']): BillingSubmitResult => {
    log.info({ reason, status: current?.caseStatus }, 'billing submission skipped');
    return { outcome: 'skipped', reason };
  };
  if (!current || current.deleted) return skip('missing');
  if (current.submission?.generation !== generation) return skip('stale');
  if (!SENDING.includes(current.caseStatus)) return skip('not-sending');

  const sub = (d: BillingCaseDoc, over: Partial<BillingSubmission>): BillingSubmission => ({
    generation,
    attempts: d.submission?.attempts ?? 0,
    lastError: d.submission?.lastError ?? null,
    queuedOn: d.submission?.queuedOn ?? null,
    queuedBy: d.submission?.queuedBy ?? null,
    ...over,
  });
  const { step, stale } = caseSteps(deps, caseId, generation, current);

  // 1. the send starts: SUBMITTED_TO_XIFIN (first send) or RETRY_IN_PROGRESS (a retry); a re-run after a
  // crash finds the case already there and sends again under the same key
  const before = await step((d) => {
    if (d.caseStatus === 'QUEUED_FOR_SUBMISSION')
      return {
        set: { caseStatus: 'SUBMITTED_TO_XIFIN', errorDetails: null, submission: sub(d, { attempts: 1 }) },
      };
    if (d.caseStatus === 'RETRY_SCHEDULED')
      return {
        set: {
          caseStatus: 'RETRY_IN_PROGRESS',
          submission: sub(d, { attempts: (d.submission?.attempts ?? 0) + 1 }),
        },
      };
    return { noop: true };
  });
  if (stale()) return skip('not-sending');
  const retrying = RETRYING.includes(before.caseStatus);

  // 2. the claim and its answer
  const result = await sendClaim(deps, before, generation);

  // 3. record it
  if (result.kind === 'final') {
    if (retrying && before.caseStatus !== 'RETRY_SUCCEEDED') {
      await step((d) =>
        d.caseStatus === 'RETRY_SUCCEEDED'
          ? { noop: true }
          : { set: { caseStatus: 'RETRY_SUCCEEDED', errorDetails: null } },
      );
      if (stale()) return skip('not-sending');
    }
    const after = await step((d) => ({
      set: {
        caseStatus: result.status,
        errorDetails: result.errorDetails,
        submission: sub(d, { lastError: null }),
      },
    }));
    if (stale()) return skip('not-sending');
    log.info({ status: after.caseStatus }, 'billing submission answered');
    ctx.nudgeOutbox();
    await deps.documents?.start([after]);
    return { outcome: 'answered', status: after.caseStatus };
  }

  const error = result.error;
  if (lastAttempt) {
    await step((d) => ({
      set: { caseStatus: 'RETRY_FAILED', errorDetails: error, submission: sub(d, { lastError: error }) },
    }));
    if (stale()) return skip('not-sending');
    log.warn({ error }, 'billing submission failed after its last attempt');
    ctx.nudgeOutbox();
    return { outcome: 'retry-failed', status: 'RETRY_FAILED' };
  }
  await step((d) => ({
    set: { caseStatus: 'RETRY_SCHEDULED', errorDetails: error, submission: sub(d, { lastError: error }) },
  }));
  if (stale()) return skip('not-sending');
  ctx.nudgeOutbox();
  log.info({ error }, 'billing submission will be retried');
  throw new SubmissionRetry(error);
}
