import {
  MANIFEST_LIMITS,
  MANIFEST_MSG,
  expectedSampleKinds,
  readManifestHeader,
  type ManifestHeader,
} from '@onco/domain';
import type { Connection } from 'mongoose';
import type { LabModels } from '../models';
import { knownDomains, requisitionView, type LabRequisitionView } from '../samples';
import { filePlan, type ManifestPlan, type ManifestUploader, type PlanOptions } from './plan-model';
import { checkRows } from './plan-check';
import { findRequisitions } from './plan-requisitions';
import { columnNames, dataRows, readRows, RowErrors } from './plan-rows';
import { existingSamples } from './plan-samples';

/**
 * A manifest's rows -> the samples they create or update (docs/manifests.md), in two steps:
 *
 *   planManifest  reads and checks EVERY row first, with the Samples tab's own check (sample-service.ts
 *                 checkSample: the domain's validateSampleForm and the domain preference), and writes nothing.
 *                 The dry run (POST /sampleManifests/check) stops here.
 *   applyManifest writes the whole plan in ONE transaction: the new samples (each insert with its `sample`
 *                 event), the changed samples (each a conditional update on the version read, with its event),
 *                 the sample groups, the content hash and the manifest's verdict with its own event. All or
 *                 nothing: a crash, a kill or a concurrent change aborts it and nothing is left half-applied.
 *
 * A row names its requisition by TRF # or Test ID within the uploader's data scope (unknown and out of scope
 * read the same); it updates the requisition's sample with its Specimen ID (the tube id), else it creates one.
 */

/** Read and check every row (writes nothing). */
export async function planManifest(
  models: LabModels,
  uploader: ManifestUploader,
  parsed: { rows: string[][]; formulas: [number, number][]; truncated: boolean },
  opts: PlanOptions,
): Promise<ManifestPlan> {
  const rows = parsed.rows;
  if (rows.length === 0) return filePlan([{ row: 0, column: null, message: MANIFEST_MSG.noRows }]);
  const header: ManifestHeader = readManifestHeader(rows[0]);
  if (header.errors.length) return filePlan(header.errors);
  const { data, trfSet, testSet } = dataRows(header, rows);
  if (parsed.truncated || data.length > MANIFEST_LIMITS.maxRows)
    return filePlan([{ row: 0, column: null, message: MANIFEST_MSG.tooManyRows(MANIFEST_LIMITS.maxRows) }]);
  if (data.length === 0) return filePlan([{ row: 0, column: null, message: MANIFEST_MSG.noRows }]);

  const timings = opts.timings ?? {};
  let t = Date.now();
  const lap = (k: string) => {
    timings[k] = (timings[k] ?? 0) + Date.now() - t;
    t = Date.now();
  };
  const errors = new RowErrors();
  const colName = columnNames(header);
  for (const [r, c] of parsed.formulas)
    errors.add({ row: r + 1, column: header.names[c] || null, message: MANIFEST_MSG.formula });

  const requisitionsRead = findRequisitions(models, uploader, [...trfSet], [...testSet]);
  requisitionsRead.catch(() => undefined); // awaited after step 1 (which does not fail); not unhandled meanwhile
  // the domains (for the preferences of step 4), read meanwhile too
  const domainsRead = knownDomains(models);
  domainsRead.catch(() => undefined);

  const { read, tubes } = readRows(header, data, colName);

  lap('plan.rows');
  const { ordersOf, reqOfTrf, reqOfTest } = await requisitionsRead;
  const views = new Map<string, LabRequisitionView>();
  for (const [id, list] of ordersOf) views.set(id, requisitionView(id, list));

  lap('plan.requisitions');
  const { existing, kindsOf } = await existingSamples(models, views, tubes);

  lap('plan.samples');
  // 4. every row through the Samples tab's check
  const domains = await domainsRead;
  const plan: ManifestPlan = {
    rows: data.length,
    errors: [],
    errorCount: 0,
    refused: 0,
    creates: [],
    updates: [],
    samples: [],
    missing: [],
  };
  const listed = await checkRows(
    {
      models,
      uploader,
      opts,
      domains,
      plan,
      errors,
      colName,
      views,
      reqOfTrf,
      reqOfTest,
      existing,
      kindsOf,
    },
    read,
  );
  plan.errors = errors.list.sort((a, b) => a.row - b.row);
  plan.errorCount = errors.count;
  plan.refused = errors.rows.size;
  // reconciliation: the expected sample kinds of each listed requisition still missing after the manifest
  for (const id of listed) {
    const req = views.get(id)!;
    const found = [...(kindsOf.get(id) ?? [])].sort();
    const expected = expectedSampleKinds(req);
    if (expected.some((k) => !found.includes(k)))
      plan.missing.push({ testOrderFormId: id, testRequisitionId: req.testRequisitionId, expected, found });
  }
  lap('plan.check');
  return plan;
}

export type { Connection };
