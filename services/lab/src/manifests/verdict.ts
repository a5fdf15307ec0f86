import { MANIFEST_MSG, manifestErrorText } from '@onco/domain';
import { createEvent, withOutbox } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { LabModels, ManifestRequisition, SampleDoc, SampleManifestDoc } from '../models';
import { filePlan, type ManifestPlan } from './plan-model';

/**
 * A manifest's verdict, PROCESSED or ERROR, with its `sample-manifest.processed` event; and what a job of the
 * `sample-manifest` queue answers (queue.ts).
 */

export interface SampleManifestJobResult {
  outcome: 'PROCESSED' | 'ERROR' | 'done-before' | 'skipped';
  reason?: 'missing' | 'deleted';
  rows?: number;
  created?: number;
  updated?: number;
  errorCount?: number;
  timings?: Record<string, number>;
}

/** What recording a verdict needs. */
export interface VerdictDeps {
  ctx: PlatformContext;
  models: LabModels;
}

export function verdictEvent(
  m: SampleManifestDoc,
  plan: ManifestPlan,
  status: 'PROCESSED' | 'ERROR',
  at: Date,
) {
  return createEvent(
    'sample-manifest',
    {
      data: {
        attachmentId: m._id,
        status,
        rows: plan.rows,
        created: status === 'PROCESSED' ? plan.creates.length : 0,
        updated: status === 'PROCESSED' ? plan.updates.length : 0,
        errorCount: status === 'ERROR' ? Math.max(plan.errorCount, 1) : 0,
        errorDetails:
          status === 'ERROR' ? manifestErrorText(plan.errors, plan.errorCount).slice(0, 200_000) : null,
        missingSamples: plan.missing.reduce(
          (n, x) => n + x.expected.filter((k) => !x.found.includes(k)).length,
          0,
        ),
        processedOn: at.toISOString(),
      },
    },
    { now: () => at },
  );
}

/**
 * The requisitions whose samples an applied plan creates or updates, in the order of their first row, with the
 * requisition's patient, account and physician as its samples carry them (GET /sampleManifests filters and
 * scopes by them) and how many of its samples were created and updated.
 */
export function manifestRequisitions(plan: ManifestPlan): ManifestRequisition[] {
  const byId = new Map<string, ManifestRequisition & { row: number }>();
  const count = (row: number, s: SampleDoc, key: 'created' | 'updated') => {
    const id = s.testOrderForm?.id;
    if (!id) return;
    let r = byId.get(id);
    if (!r) {
      r = {
        row,
        testOrderFormId: id,
        testRequisitionId: s.testOrderForm?.testRequisitionId ?? null,
        patientId: s.patient?.id ?? null,
        accountId: s.account?.id ?? null,
        physicianId: s.physician?.id ?? null,
        created: 0,
        updated: 0,
      };
      byId.set(id, r);
    }
    r.row = Math.min(r.row, row);
    r[key] += 1;
  };
  for (const c of plan.creates) if (c.doc) count(c.row, c.doc, 'created');
  for (const u of plan.updates) count(u.row, u.after, 'updated');
  return [...byId.values()].sort((a, b) => a.row - b.row).map(({ row: _row, ...r }) => r);
}

export const verdictSet = (plan: ManifestPlan, status: 'PROCESSED' | 'ERROR', at: Date) => ({
  status,
  rows: plan.rows,
  created: status === 'PROCESSED' ? plan.creates.length : 0,
  updated: status === 'PROCESSED' ? plan.updates.length : 0,
  errors: plan.errors,
  errorCount: plan.errorCount,
  missing: status === 'PROCESSED' ? plan.missing : [],
  requisitions: status === 'PROCESSED' ? manifestRequisitions(plan) : [],
  processedOn: at,
  updatedOn: at,
});

/** ERROR, with the plan's errors, in one conditional write with its event (nothing else is written). */
export async function recordError(
  deps: VerdictDeps,
  m: SampleManifestDoc,
  plan: ManifestPlan,
): Promise<SampleManifestJobResult> {
  const { ctx, models } = deps;
  const at = new Date();
  if (plan.errorCount === 0)
    plan = {
      ...plan,
      errors: [{ row: 0, column: null, message: MANIFEST_MSG.notProcessed }],
      errorCount: 1,
    };
  await models.SampleManifest.updateOne(
    { _id: m._id, status: 'UPLOADED' },
    withOutbox({ $set: verdictSet(plan, 'ERROR', at) }, verdictEvent(m, plan, 'ERROR', at)),
  ).exec();
  ctx.nudgeOutbox();
  ctx.logger.info(
    { attachmentId: m._id, rows: plan.rows, errorCount: plan.errorCount },
    'sample manifest refused',
  );
  return { outcome: 'ERROR', rows: plan.rows, errorCount: plan.errorCount };
}

/** ERROR for the file as a whole (row 0), with `message`. */
export const fileError = (deps: VerdictDeps, m: SampleManifestDoc, message: string, rows = 0) =>
  recordError(deps, m, filePlan([{ row: 0, column: null, message }], rows));
