import { MANIFEST_MSG } from '@onco/domain';
import { withOutbox } from '@onco/events';
import { inTransaction, type AuditActor } from '@onco/platform';
import type { SampleManifestDoc } from '../models';
import { labAuditTrail } from '../use-cases/audit';
import { StalePlanError, applyManifestPlan } from './apply';
import { formatOfName, ManifestFileError, readBlob } from './manifest-file';
import { parseManifestFile, prewarmParseThread } from './parse';
import { planManifest } from './plan';
import type { ManifestPlan, ManifestUploader } from './plan-model';
import {
  fileError,
  recordError,
  verdictEvent,
  verdictSet,
  type SampleManifestJobResult,
  type VerdictDeps,
} from './verdict';

/**
 * One manifest's processing by its job (queue.ts): read the file, parse it, refuse content applied before, plan
 * every row, and record ERROR or apply the plan with PROCESSED in one transaction (a plan gone stale is made
 * again, PLAN_TRIES times).
 */

const PLAN_TRIES = 3;

/**
 * What a running job says of itself (BullMQ job progress, in Redis: never a write to the store, so never in the
 * way of the apply transaction): the phase, and for APPLYING how many new samples of how many are written.
 * GET /sampleManifests/{id} shows it while the manifest is UPLOADED (result-routes.ts).
 */
export interface ManifestJobProgress {
  phase: 'READING' | 'PARSING' | 'CHECKING' | 'APPLYING';
  done: number;
  total: number;
}

export interface SampleManifestQueueHooks {
  /** tests: runs inside the apply transaction after half of the new samples are inserted */
  midApply?: (attachmentId: string) => Promise<void>;
}

/** What processing a manifest needs (wired by defineSampleManifestQueue). */
export interface ManifestJobDeps extends VerdictDeps {
  reviewAccountId?: string | null;
  hooks?: SampleManifestQueueHooks;
}

async function alreadyApplied(deps: ManifestJobDeps, m: SampleManifestDoc): Promise<string | null> {
  if (!m.sha256) return null;
  const prior = await deps.models.SampleManifestContent.findById(m.sha256).lean().exec();
  if (!prior || prior.attachmentId === m._id) return null;
  return MANIFEST_MSG.alreadyApplied(prior.name, prior.appliedOn.toISOString().slice(0, 10));
}

/**
 * Who a manifest's samples are changed by in the audit trail: its uploader, as the manifest records them (the
 * job runs in a worker, after the upload's request: no request to take them from): id, name and role (UNKNOWN
 * for a manifest recorded from an attachment event before schemaVersion 2, which had no role); the request id is
 * the manifest's (its attachment id).
 */
export function manifestActor(m: Pick<SampleManifestDoc, '_id' | 'uploadedBy' | 'uploaderRole'>): AuditActor {
  return {
    who: {
      userId: m.uploadedBy?.id ?? 'unknown',
      role: m.uploaderRole ?? 'UNKNOWN',
      name: m.uploadedBy?.name ?? '',
    },
    from: { ip: null, userAgent: null, requestId: m._id },
    accountIds: [],
    route: 'WORKER sample-manifest',
  };
}

/**
 * The plan applied (each sample created or changed with its audit entry, by the uploader), the content hash recorded and the PROCESSED verdict with its event written, in one
 * transaction; false when the manifest had its verdict already.
 */
function applyInTransaction(
  deps: ManifestJobDeps,
  m: SampleManifestDoc,
  plan: ManifestPlan,
  uploader: ManifestUploader,
  at: Date,
  timings: Record<string, number>,
  report: (p: ManifestJobProgress) => void,
): Promise<boolean> {
  const { ctx, models, hooks } = deps;
  return inTransaction(
    ctx.mongo,
    async (session) => {
      if (m.sha256)
        await models.SampleManifestContent.collection.insertOne(
          { _id: m.sha256, attachmentId: m._id, name: m.name, appliedOn: at } as never,
          { session },
        );
      await applyManifestPlan(
        models,
        session,
        plan,
        uploader.by,
        at,
        manifestActor(m),
        hooks?.midApply ? () => hooks!.midApply!(m._id) : undefined,
        timings,
        (done, total) => report({ phase: 'APPLYING', done, total }),
      );
      const res = await models.SampleManifest.collection.updateOne(
        { _id: m._id, status: 'UPLOADED' } as never,
        withOutbox({ $set: verdictSet(plan, 'PROCESSED', at) }, verdictEvent(m, plan, 'PROCESSED', at)),
        { session },
      );
      return res.matchedCount === 1;
    },
    { timeoutMs: 60_000 },
  );
}

/** Process a manifest still UPLOADED to its verdict, telling `report` where it is. */
export async function processManifest(
  deps: ManifestJobDeps,
  m: SampleManifestDoc,
  report: (p: ManifestJobProgress) => void,
): Promise<SampleManifestJobResult> {
  const { ctx, models } = deps;
  const timings: Record<string, number> = {};
  let t = Date.now();
  const lap = (k: string) => {
    timings[k] = Date.now() - t;
    t = Date.now();
  };
  if (!m.uploaderScope?.mayEditSamples) return fileError(deps, m, MANIFEST_MSG.notAllowed);
  const format = formatOfName(m.name);
  if (!format) return fileError(deps, m, 'A sample manifest must be a .xlsx, .xls or .csv file.');
  const before = await alreadyApplied(deps, m);
  if (before) return fileError(deps, m, before);
  if (!m.blobId) return fileError(deps, m, 'The file of this attachment is not available.');
  let parsed;
  try {
    report({ phase: 'READING', done: 0, total: 0 });
    prewarmParseThread(); // starts while the file is read
    const buf = await readBlob(await ctx.blobs.get(m.blobId));
    lap('read');
    report({ phase: 'PARSING', done: 0, total: 0 });
    parsed = await parseManifestFile(buf, format);
    lap('parse');
  } catch (err) {
    if (err instanceof ManifestFileError) return fileError(deps, m, err.message);
    throw err;
  }
  const uploader = {
    by: { id: m.uploadedBy.id ?? 'unknown', name: m.uploadedBy.name ?? '' },
    scope: m.uploaderScope,
  };
  for (let attempt = 1; ; attempt++) {
    const at = new Date();
    report({ phase: 'CHECKING', done: 0, total: Math.max(parsed.rows.length - 1, 0) });
    const plan = await planManifest(models, uploader, parsed, {
      now: at,
      reviewAccountId: deps.reviewAccountId ?? null,
      attachmentId: m._id,
      timings,
    });
    lap('plan');
    if (plan.errorCount > 0) return recordError(deps, m, plan);
    try {
      report({ phase: 'APPLYING', done: 0, total: plan.creates.length });
      const applied = await applyInTransaction(deps, m, plan, uploader, at, timings, report);
      lap('apply');
      labAuditTrail(models).recorded(); // the samples' entries are committed: this process's chainer takes them
      ctx.nudgeOutbox();
      if (!applied) return { outcome: 'done-before' };
      ctx.logger.info(
        {
          attachmentId: m._id,
          rows: plan.rows,
          created: plan.creates.length,
          updated: plan.updates.length,
          timings,
        },
        'sample manifest applied',
      );
      return {
        outcome: 'PROCESSED',
        rows: plan.rows,
        created: plan.creates.length,
        updated: plan.updates.length,
        errorCount: 0,
        timings,
      };
    } catch (err) {
      if (
        (err as { code?: number })?.code === 11000 &&
        /sample_manifest_contents/.test(String((err as Error).message))
      ) {
        const why = await alreadyApplied(deps, m);
        if (why) return fileError(deps, m, why, plan.rows);
      }
      if (err instanceof StalePlanError && attempt < PLAN_TRIES) continue;
      throw err;
    }
  }
}
