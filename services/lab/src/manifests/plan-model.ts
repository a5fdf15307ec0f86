import { createHash } from 'node:crypto';
import { MANIFEST_LIMITS, type ManifestError, type SpecimenKind } from '@onco/domain';
import type { MissingSamples, SampleDoc } from '../models';

/** What a manifest's plan is (plan.ts makes it, apply.ts writes it), and what making and writing it share. */

export interface ManifestUploader {
  by: { id: string; name: string };
  scope: { allAccounts: boolean; accountIds: string[]; physicianIds: string[] };
}

export interface PlannedSample {
  row: number;
  action: 'create' | 'update';
  testOrderFormId: string;
  testRequisitionId: string | null;
  name: string;
  type: SpecimenKind;
}

export interface ManifestPlan {
  rows: number;
  errors: ManifestError[];
  errorCount: number;
  /** rows with at least one error */
  refused: number;
  /** the new samples; `doc` is null in a dry run's plan (checked, not built: it is never applied) */
  creates: { row: number; doc: SampleDoc | null }[];
  updates: { row: number; current: SampleDoc; set: Record<string, unknown>; after: SampleDoc }[];
  /** the samples the valid rows create or update, in row order (the first `samplesMax`) */
  samples: PlannedSample[];
  missing: MissingSamples[];
}

export interface PlanOptions {
  now: Date;
  reviewAccountId?: string | null;
  /** the manifest's attachment id (new sample ids derive from it and the row's tube id); none for a dry run */
  attachmentId?: string | null;
  /**
   * a dry run (POST /sampleManifests/check): every row is checked the same, but the documents of new samples
   * (~1/3 of the check's CPU, measured) are not built; such a plan cannot be applied
   */
  dryRun?: boolean;
  /** how many of the planned samples `samples` lists, in row order (the dry run answers the first 1,000); all by default */
  samplesMax?: number;
  /** ms per phase of the plan, added to (job timings; the benchmark) */
  timings?: Record<string, number>;
}

const CHUNK = 1000;
export const chunks = <T>(xs: readonly T[], n = CHUNK) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** The id of the sample a manifest creates for a tube of a requisition: a re-run creates the same id. */
export const manifestSampleId = (attachmentId: string, requisitionId: string, specimenId: string) => {
  const h = createHash('sha256')
    .update(`${attachmentId}\u0000${requisitionId}\u0000${specimenId}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-b${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** A plan that refuses the file as a whole (row 0, or the header's row 1). */
export function filePlan(errors: ManifestError[], rows = 0): ManifestPlan {
  return {
    rows,
    errors: errors.slice(0, MANIFEST_LIMITS.maxErrors),
    errorCount: errors.length,
    refused: 0,
    creates: [],
    updates: [],
    samples: [],
    missing: [],
  };
}
