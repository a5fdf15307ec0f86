import {
  MANIFEST_MSG,
  SAMPLE_MSG,
  proceedAllowed,
  samplesMayBeAdded,
  type ManifestColumnKey,
  type ManifestRow,
  type SampleStatus,
  type SpecimenKind,
} from '@onco/domain';
import type { DomainPreferenceDoc, LabModels, SampleDoc } from '../models';
import {
  checkSample,
  DomainPreferenceCache,
  formOfSample,
  newSampleDoc,
  sampleChange,
  type LabRequisitionView,
  type SampleInput,
} from '../samples';
import { manifestSampleId, type ManifestPlan, type ManifestUploader, type PlanOptions } from './plan-model';
import { refuseFields, type RowErrors } from './plan-rows';

/**
 * Step 4 of planManifest: every row through the Samples tab's check (sample-service.ts checkSample), into the
 * plan's creates, updates and samples, or its errors.
 */

/** What step 4 works with: the plan being made and its errors, and what steps 1 to 3 found. */
export interface RowCheckState {
  models: LabModels;
  uploader: ManifestUploader;
  opts: PlanOptions;
  /** the domains known (for the domain preferences) */
  domains: string[];
  plan: ManifestPlan;
  errors: RowErrors;
  colName: (key: ManifestColumnKey) => string;
  views: Map<string, LabRequisitionView>;
  reqOfTrf: Map<string, string>;
  reqOfTest: Map<string, string>;
  existing: Map<string, SampleDoc>;
  kindsOf: Map<string, Set<string>>;
}

/**
 * Step 4's own: the rule configuration, the check of a row, how many samples `samples` lists, and which
 * requisitions take samples.
 */
interface RowCheck extends RowCheckState {
  cfg: { reviewAccountId: string | null };
  checkRow: (
    req: LabRequisitionView,
    type: SpecimenKind,
    input: SampleInput,
    current: SampleDoc | null,
  ) => ReturnType<typeof checkSample>;
  samplesMax: number;
  /** per requisition, whether samples may still be added (its tests' statuses; the same for all its rows) */
  mayAdd: Map<string, boolean>;
}

/** A row with its sample type and its tube id (the rows a sample is planned for). */
type PlannableRow = ManifestRow & { type: SpecimenKind; specimenId: string };
const plannable = (m: ManifestRow): m is PlannableRow => !!m.type && !!m.specimenId;

/**
 * A new sample's form (with its type) from a row's fields, every field named (an absent cell undefined): one object shape for
 * every row, which a copy with `...` of the row's own (varying) keys is not (it was a third of the check's time).
 */
function newSampleInput(
  type: SpecimenKind,
  f: ManifestRow['fields'],
  status: SampleStatus,
  specimenId: string,
): SampleInput & { type: SpecimenKind } {
  // typed so that a field the row can carry and this list forgets is a compile error
  const input: { [K in keyof Required<ManifestRow['fields']>]: ManifestRow['fields'][K] } & {
    specimenId: string;
    type: SpecimenKind;
  } = {
    type,
    status,
    specimenId,
    specimenType: f.specimenType,
    sampleSite: f.sampleSite,
    name: f.name,
    limsProjectId: f.limsProjectId,
    limsProjectName: f.limsProjectName,
    accessionId: f.accessionId,
    sampleGroupId: f.sampleGroupId,
    collectedOn: f.collectedOn,
    receivedOn: f.receivedOn,
    trackingNumber: f.trackingNumber,
    doNotExhaust: f.doNotExhaust,
    diagnosis: f.diagnosis,
    containerLocationValue: f.containerLocationValue,
  };
  return input;
}

/**
 * The requisition a row names by TRF # or Test ID (undefined when none is found); a TRF # and a Test ID of two
 * requisitions, an unknown requisition or a deleted one is an error of the row (in `m.errors`).
 */
function rowRequisition(s: RowCheckState, m: ManifestRow, refCol: string): LabRequisitionView | undefined {
  const { colName, reqOfTrf, reqOfTest, views } = s;
  let reqId: string | undefined;
  if (m.testRequisitionId) reqId = reqOfTrf.get(m.testRequisitionId);
  if (m.testOrderId) {
    const byTest = reqOfTest.get(m.testOrderId);
    if (reqId && byTest && reqId !== byTest)
      m.errors.push({
        row: m.row,
        column: colName('testOrderId'),
        message: MANIFEST_MSG.referenceMismatch(m.testRequisitionId!, m.testOrderId),
      });
    reqId ??= byTest;
  }
  const req = reqId ? views.get(reqId) : undefined;
  if ((m.testRequisitionId || m.testOrderId) && !req) {
    const ref = m.testRequisitionId ? `TRF # ${m.testRequisitionId}` : `Test ID ${m.testOrderId}`;
    m.errors.push({ row: m.row, column: refCol, message: MANIFEST_MSG.unknownRequisition(ref) });
  } else if (req?.deleted)
    m.errors.push({
      row: m.row,
      column: refCol,
      message: MANIFEST_MSG.requisitionDeleted,
    });
  return req;
}

/** An update of `current` planned: the change, and the sample listed (while `samples` has room). */
function planUpdate(
  s: RowCheck,
  m: PlannableRow,
  req: LabRequisitionView,
  current: SampleDoc,
  input: SampleInput,
  pref: DomainPreferenceDoc | null,
) {
  const { plan, uploader, opts, samplesMax } = s;
  const { set, after } = sampleChange(current, input, req, pref, uploader.by.id, opts.now);
  plan.updates.push({ row: m.row, current, set, after });
  if (plan.samples.length < samplesMax)
    plan.samples.push({
      row: m.row,
      action: 'update',
      testOrderFormId: req.id,
      testRequisitionId: req.testRequisitionId,
      name: after.name ?? m.specimenId,
      type: m.type,
    });
}

/** A new sample's form from a row; null, and the row refused, when its requisition takes no more samples. */
function newRowInput(
  s: RowCheck,
  m: PlannableRow,
  req: LabRequisitionView,
  refCol: string,
): (SampleInput & { type: SpecimenKind }) | null {
  const { cfg, mayAdd } = s;
  let may = mayAdd.get(req.id);
  if (may === undefined) mayAdd.set(req.id, (may = samplesMayBeAdded(req.testOrders.map((t) => t.status))));
  if (!may) {
    s.errors.add({ row: m.row, column: refCol, message: SAMPLE_MSG.addNotAllowed });
    return null;
  }
  const f = m.fields;
  // a blank status: PROCEED when the rules allow it and the row has what PROCEED needs, else ON_HOLD
  const status =
    f.status ??
    (proceedAllowed(req, m.type, cfg) && f.accessionId && f.sampleGroupId ? 'PROCEED' : 'ON_HOLD');
  return newSampleInput(m.type, f, status, m.specimenId);
}

/** A new sample planned: its document (none in a dry run), its kind noted, and the sample listed. */
function planCreate(
  s: RowCheck,
  m: PlannableRow,
  req: LabRequisitionView,
  input: SampleInput & { type: SpecimenKind },
  pref: DomainPreferenceDoc | null,
) {
  const { plan, uploader, opts, kindsOf, samplesMax } = s;
  // a dry run never writes, so it does not build the document (the checks above are the same)
  const doc = opts.dryRun
    ? null
    : newSampleDoc(m.type, input, req, pref, uploader.by, opts.now, {
        _id: opts.attachmentId ? manifestSampleId(opts.attachmentId, req.id, m.specimenId) : undefined,
        limsId: m.limsId,
      });
  plan.creates.push({ row: m.row, doc });
  const kinds = kindsOf.get(req.id);
  if (!kinds) kindsOf.set(req.id, new Set([m.type]));
  else if (!kinds.has(m.type)) kinds.add(m.type);
  if (plan.samples.length < samplesMax)
    plan.samples.push({
      row: m.row,
      action: 'create',
      testOrderFormId: req.id,
      testRequisitionId: req.testRequisitionId,
      // without the document: what newSampleDoc's name would be (the cell is trimmed already)
      name: (doc ? doc.name : input.name) ?? m.specimenId,
      type: m.type,
    });
}

/**
 * 4. every row through the Samples tab's check, into the plan (its creates, updates and samples) or `errors`.
 * Returns the requisitions the valid rows name (the reconciliation's).
 */
export async function checkRows(state: RowCheckState, read: ManifestRow[]): Promise<Set<string>> {
  const { models, opts, domains, errors, colName, existing } = state;
  const today = opts.now.toISOString().slice(0, 10);
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const prefs = new DomainPreferenceCache(models, domains);
  const s: RowCheck = {
    ...state,
    cfg,
    // the Samples tab's check of a row: an edit of `current`, or an add; answered at once unless the store is asked
    checkRow: (req, type, input, current) =>
      checkSample(models, req, type, input, {
        mode: current ? 'edit' : 'add',
        current: current ?? undefined,
        today,
        cfg,
        domains,
        prefs,
      }),
    samplesMax: opts.samplesMax ?? Infinity,
    mayAdd: new Map<string, boolean>(),
  };
  const { checkRow } = s;
  const listed = new Set<string>();
  const refColOfTrf = colName('testRequisitionId');
  const refColOfTest = colName('testOrderId');
  for (const m of read) {
    const refCol = m.testRequisitionId ? refColOfTrf : refColOfTest;
    const req = rowRequisition(s, m, refCol);
    if (m.errors.length || !req || !plannable(m)) {
      m.errors.forEach((e) => errors.add(e));
      continue;
    }
    listed.add(req.id);
    const current = existing.size ? existing.get(`${req.id}\u0000${m.specimenId}`) : undefined;
    if (current) {
      if (m.limsId && current.limsId !== m.limsId) {
        errors.add({
          row: m.row,
          column: colName('limsId'),
          message: MANIFEST_MSG.limsIdMismatch(m.limsId, current.limsId),
        });
        continue;
      }
      const input: SampleInput = { ...formOfSample(current), ...m.fields, specimenId: m.specimenId };
      let check = checkRow(req, m.type, { ...input, type: m.type } as SampleInput, current);
      if (check instanceof Promise) check = await check;
      if (refuseFields(errors, m.row, check.errors, colName)) continue;
      planUpdate(s, m, req, current, input, check.pref);
    } else {
      const input = newRowInput(s, m, req, refCol);
      if (!input) continue;
      let check = checkRow(req, m.type, input, null);
      if (check instanceof Promise) check = await check;
      if (refuseFields(errors, m.row, check.errors, colName)) continue;
      planCreate(s, m, req, input, check.pref);
    }
  }
  return listed;
}
