import { createHash } from 'node:crypto';
import type { ClientSession, Connection } from 'mongoose';
import {
  MANIFEST_LIMITS,
  MANIFEST_MSG,
  SAMPLE_MSG,
  expectedSampleKinds,
  isBlankRow,
  manifestLabel,
  proceedAllowed,
  readManifestHeader,
  readManifestRow,
  samplesMayBeAdded,
  type ManifestColumnKey,
  type ManifestError,
  type ManifestHeader,
  type ManifestRow,
  type SampleStatus,
  type SpecimenKind,
} from '@onco/domain';
import { outboxForInsert, withOutbox } from '@onco/events';
import type { SessionUser } from '@onco/platform';
import type { LabModels, MissingSamples, SampleDoc, TestOrderDoc } from '../models';
import {
  checkSample,
  DomainPreferenceCache,
  formOfSample,
  knownDomains,
  newSampleDoc,
  requisitionView,
  sampleChange,
  sampleEvent,
  type LabRequisitionView,
  type SampleInput,
} from '../samples';
import { testOrderScope } from '../test-order-service';

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

/** A test order as the plan reads it: without its history, reports and outbox (requisitionView needs none). */
const ORDER_FIELDS = { outbox: 0, testHistories: 0, reports: 0 } as const;

const CHUNK = 1000;
const chunks = <T>(xs: readonly T[], n = CHUNK) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

/** The id of the sample a manifest creates for a tube of a requisition: a re-run creates the same id. */
export const manifestSampleId = (attachmentId: string, requisitionId: string, specimenId: string) => {
  const h = createHash('sha256')
    .update(`${attachmentId}\u0000${requisitionId}\u0000${specimenId}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-b${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** The sample form field a rule names -> the manifest column it comes from. */
const COLUMN_OF: Record<string, ManifestColumnKey> = {
  type: 'type',
  specimenId: 'specimenId',
  status: 'status',
  specimenType: 'specimenType',
  sampleSite: 'sampleSite',
  limsProjectId: 'limsProjectId',
  limsProjectName: 'limsProjectName',
  accessionId: 'accessionId',
  sampleGroupId: 'sampleGroupId',
  collectedOn: 'collectedOn',
  receivedOn: 'receivedOn',
  trackingNumber: 'trackingNumber',
  name: 'name',
  doNotExhaust: 'doNotExhaust',
};

class Errors {
  list: ManifestError[] = [];
  count = 0;
  rows = new Set<number>();
  add(e: ManifestError) {
    this.count++;
    if (e.row > 0) this.rows.add(e.row);
    if (this.list.length < MANIFEST_LIMITS.maxErrors) this.list.push(e);
  }
}

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

/** The sample rules' problems of a row, by the columns they come from; whether there were any. */
function refuseFields(
  errors: Errors,
  row: number,
  fe: Record<string, string>,
  colName: (key: ManifestColumnKey) => string,
): boolean {
  let any = false;
  for (const field in fe) {
    any = true;
    errors.add({ row, column: COLUMN_OF[field] ? colName(COLUMN_OF[field]) : field, message: fe[field] });
  }
  return any;
}

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
  // the rows that are not blank, with their spreadsheet row numbers; and the requisitions they name (step 2 reads
  // them in the store while this thread reads the rows, step 1): the TRF # and Test ID cells as readManifestRow
  // reads them (trimmed, blank = none)
  const data: { row: number; cells: string[] }[] = [];
  const trfSet = new Set<string>();
  const testSet = new Set<string>();
  const trfCol = header.index.testRequisitionId;
  const testCol = header.index.testOrderId;
  for (let i = 1; i < rows.length; i++) {
    const cells = rows[i];
    if (isBlankRow(cells)) continue;
    data.push({ row: i + 1, cells });
    const trf = trfCol === undefined ? '' : (cells[trfCol] ?? '').trim();
    if (trf) trfSet.add(trf);
    const test = testCol === undefined ? '' : (cells[testCol] ?? '').trim();
    if (test) testSet.add(test);
  }
  if (parsed.truncated || data.length > MANIFEST_LIMITS.maxRows)
    return filePlan([{ row: 0, column: null, message: MANIFEST_MSG.tooManyRows(MANIFEST_LIMITS.maxRows) }]);
  if (data.length === 0) return filePlan([{ row: 0, column: null, message: MANIFEST_MSG.noRows }]);

  const timings = opts.timings ?? {};
  let t = Date.now();
  const lap = (k: string) => {
    timings[k] = (timings[k] ?? 0) + Date.now() - t;
    t = Date.now();
  };
  const errors = new Errors();
  const colName = (key: ManifestColumnKey) => {
    const i = header.index[key];
    return i === undefined ? manifestLabel(key) : header.names[i] || manifestLabel(key);
  };
  for (const [r, c] of parsed.formulas)
    errors.add({ row: r + 1, column: header.names[c] || null, message: MANIFEST_MSG.formula });

  const requisitionsRead = findRequisitions(models, uploader, [...trfSet], [...testSet]);
  requisitionsRead.catch(() => undefined); // awaited after step 1 (which does not fail); not unhandled meanwhile
  // the domains (for the preferences of step 4), read meanwhile too
  const domainsRead = knownDomains(models);
  domainsRead.catch(() => undefined);

  // 1. every row read on its own: required cells, values, cell length, a tube id twice in the file (one pass)
  const read: ManifestRow[] = new Array(data.length);
  const tubes = new Map<string, number>();
  const maxChars = MANIFEST_LIMITS.maxCellChars;
  for (let k = 0; k < data.length; k++) {
    const { row, cells } = data[k];
    const m = readManifestRow(header, cells, row);
    for (let c = 0; c < cells.length; c++)
      if (cells[c].length > maxChars)
        m.errors.push({ row, column: header.names[c] || null, message: MANIFEST_MSG.cellTooLong(maxChars) });
    if (m.specimenId) {
      const first = tubes.get(m.specimenId);
      if (first !== undefined)
        m.errors.push({
          row,
          column: colName('specimenId'),
          message: MANIFEST_MSG.duplicateSpecimen(m.specimenId, first),
        });
      else tubes.set(m.specimenId, row);
    }
    read[k] = m;
  }

  lap('plan.rows');
  const { ordersOf, reqOfTrf, reqOfTest } = await requisitionsRead;
  const views = new Map<string, LabRequisitionView>();
  for (const [id, list] of ordersOf) views.set(id, requisitionView(id, list));

  lap('plan.requisitions');
  // 3. the samples of these requisitions, grouped in the store (one answer per requisition, not one per sample):
  //    the kinds each has (reconciliation) and its tube ids with their sample ids; only the file's tubes that
  //    exist are then read whole (an update needs them)
  const existing = new Map<string, SampleDoc>();
  const kindsOf = new Map<string, Set<string>>();
  const wanted: string[] = [];
  const note = (req: string, type: string, id: string, specimenId?: string | null) => {
    kindsOf.set(req, (kindsOf.get(req) ?? new Set()).add(type));
    if (specimenId && tubes.has(specimenId)) wanted.push(id);
  };
  for (const reqPart of chunks([...views.keys()])) {
    const match = { 'testOrderForm.id': { $in: reqPart }, deleted: false };
    let grouped: { _id: string; kinds: string[]; tubes: { i: string; s?: string | null }[] }[];
    try {
      grouped = await models.Sample.collection
        .aggregate<(typeof grouped)[number]>([
          { $match: match },
          {
            $group: {
              _id: '$testOrderForm.id',
              kinds: { $addToSet: '$type' },
              tubes: { $push: { i: '$_id', s: '$specimenId' } },
            },
          },
        ])
        .toArray();
    } catch {
      // one requisition's answer past the store's 16 MB (some 200,000 samples): one light document a sample
      // instead (a failing store fails this read too, and the job is retried)
      const light = await models.Sample.find(match, { type: 1, specimenId: 1, 'testOrderForm.id': 1 })
        .lean<Pick<SampleDoc, '_id' | 'type' | 'specimenId' | 'testOrderForm'>[]>()
        .exec();
      for (const x of light) note(x.testOrderForm!.id!, x.type, x._id, x.specimenId);
      continue;
    }
    for (const g of grouped) {
      for (const k of g.kinds) note(g._id, k, '');
      for (const x of g.tubes) if (x.s && tubes.has(x.s)) wanted.push(x.i);
    }
  }
  for (const part of chunks(wanted)) {
    const found = await models.Sample.find({ _id: { $in: part } }, { outbox: 0 })
      .lean<SampleDoc[]>()
      .exec();
    for (const s of found) existing.set(`${s.testOrderForm!.id}\u0000${s.specimenId}`, s);
  }

  lap('plan.samples');
  // 4. every row through the Samples tab's check
  const today = opts.now.toISOString().slice(0, 10);
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const domains = await domainsRead;
  const prefs = new DomainPreferenceCache(models, domains);
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
  // the Samples tab's check of a row: an edit of `current`, or an add; answered at once unless the store is asked
  const checkRow = (
    req: LabRequisitionView,
    type: SpecimenKind,
    input: SampleInput,
    current: SampleDoc | null,
  ) =>
    checkSample(models, req, type, input, {
      mode: current ? 'edit' : 'add',
      current: current ?? undefined,
      today,
      cfg,
      domains,
      prefs,
    });
  const samplesMax = opts.samplesMax ?? Infinity;
  const listed = new Set<string>();
  // per requisition, whether samples may still be added (its tests' statuses; the same for all its rows)
  const mayAdd = new Map<string, boolean>();
  const refColOfTrf = colName('testRequisitionId');
  const refColOfTest = colName('testOrderId');
  for (const m of read) {
    const refCol = m.testRequisitionId ? refColOfTrf : refColOfTest;
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
    if (m.errors.length || !req || !m.type || !m.specimenId) {
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
      const { set, after } = sampleChange(current, input, req, check.pref, uploader.by.id, opts.now);
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
    } else {
      let may = mayAdd.get(req.id);
      if (may === undefined)
        mayAdd.set(req.id, (may = samplesMayBeAdded(req.testOrders.map((t) => t.status))));
      if (!may) {
        errors.add({ row: m.row, column: refCol, message: SAMPLE_MSG.addNotAllowed });
        continue;
      }
      const f = m.fields;
      // a blank status: PROCEED when the rules allow it and the row has what PROCEED needs, else ON_HOLD
      const status =
        f.status ??
        (proceedAllowed(req, m.type, cfg) && f.accessionId && f.sampleGroupId ? 'PROCEED' : 'ON_HOLD');
      const input = newSampleInput(m.type, f, status, m.specimenId);
      let check = checkRow(req, m.type, input, null);
      if (check instanceof Promise) check = await check;
      if (refuseFields(errors, m.row, check.errors, colName)) continue;
      // a dry run never writes, so it does not build the document (the checks above are the same)
      const doc = opts.dryRun
        ? null
        : newSampleDoc(m.type, input, req, check.pref, uploader.by, opts.now, {
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
  }
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

/**
 * Step 2 of the plan: the requisitions named by TRF # or Test ID, in the uploader's scope (their test orders:
 * the lab knows submitted ones only). Per requisition id its test orders; the requisition of each TRF # and Test
 * ID found.
 */
async function findRequisitions(
  models: LabModels,
  uploader: ManifestUploader,
  trfs: string[],
  tests: string[],
): Promise<{
  ordersOf: Map<string, TestOrderDoc[]>;
  reqOfTrf: Map<string, string>;
  reqOfTest: Map<string, string>;
}> {
  const scope = testOrderScope(uploader.scope as SessionUser);
  const byScope = (filter: Record<string, unknown>) =>
    Object.keys(scope).length ? { $and: [filter, scope] } : filter;
  const ordersOf = new Map<string, TestOrderDoc[]>();
  const reqOfTrf = new Map<string, string>();
  const reqOfTest = new Map<string, string>();
  const lookup = async (
    field: string,
    values: string[],
    into: Map<string, string>,
    keyOf: (o: TestOrderDoc) => string | null,
  ) => {
    for (const part of chunks(values)) {
      const found = await models.TestOrder.find(byScope({ [field]: { $in: part } }), ORDER_FIELDS)
        .sort({ createdOn: 1, _id: 1 })
        .lean<TestOrderDoc[]>()
        .exec();
      for (const o of found) {
        const id = o.testOrderForm.id;
        const list = ordersOf.get(id) ?? [];
        if (!list.some((x) => x._id === o._id)) list.push(o);
        ordersOf.set(id, list);
        const k = keyOf(o);
        if (k && !into.has(k)) into.set(k, id);
      }
    }
  };
  await lookup(
    'testOrderForm.testRequisitionId',
    trfs,
    reqOfTrf,
    (o) => o.testOrderForm.testRequisitionId ?? null,
  );
  // found by TRF #: every test order of the requisition in scope is in (they all carry the TRF #)
  const whole = new Set(ordersOf.keys());
  await lookup('testOrderId', tests, reqOfTest, (o) => o.testOrderId ?? null);
  // a requisition found by a test id only: all its test orders (the rules look at every test of it)
  const partial = [...ordersOf.keys()].filter((id) => !whole.has(id));
  for (const part of chunks(partial)) {
    const all = await models.TestOrder.find(byScope({ 'testOrderForm.id': { $in: part } }), ORDER_FIELDS)
      .sort({ createdOn: 1, _id: 1 })
      .lean<TestOrderDoc[]>()
      .exec();
    const grouped = new Map<string, TestOrderDoc[]>();
    for (const o of all) grouped.set(o.testOrderForm.id, [...(grouped.get(o.testOrderForm.id) ?? []), o]);
    for (const [id, list] of grouped) ordersOf.set(id, list);
  }
  return { ordersOf, reqOfTrf, reqOfTest };
}

/** A conditional update of the plan found the sample changed since it was read: the plan is made again. */
export class StalePlanError extends Error {
  constructor() {
    super('a sample of the manifest was changed meanwhile');
    this.name = 'StalePlanError';
  }
}

/**
 * Write the plan's samples and groups in `session` (the caller's transaction, which also records the verdict).
 * `midway` (tests) runs after half of the new samples are inserted.
 */
export async function applyManifestPlan(
  models: LabModels,
  session: ClientSession,
  plan: ManifestPlan,
  by: { id: string; name: string },
  at: Date,
  midway?: () => Promise<void>,
  timings: Record<string, number> = {},
  /** after each chunk of new samples: how many of them are written (the job's progress) */
  progress?: (done: number, total: number) => void,
): Promise<void> {
  let t = Date.now();
  const lap = (k: string) => {
    timings[k] = (timings[k] ?? 0) + Date.now() - t;
    t = Date.now();
  };
  const creates = plan.creates.map(({ row, doc }) => {
    if (!doc) throw new Error(`a dry run's plan is not applied (row ${row})`);
    return { row, doc };
  });
  const half = Math.floor(creates.length / 2);
  let done = 0;
  // the new samples, each with its `sample` event in its outbox, a chunk at a time; the next chunk's documents
  // and events (~15 µs a sample of CPU here, the events' schema checks) are built while the store inserts the
  // previous chunk (its CPU, not ours), so the two overlap instead of adding up
  const build = (part: typeof creates) =>
    part.map(({ doc }) => ({ ...doc, outbox: outboxForInsert(sampleEvent(doc, 'created', by, at)) }));
  const parts = chunks(creates);
  let next = parts.length ? build(parts[0]) : [];
  lap('events');
  for (let i = 0; i < parts.length; i++) {
    const inserting = models.Sample.collection.insertMany(next as never[], { session, ordered: true });
    // let the driver send the insert before building the next chunk
    await new Promise((resolve) => setImmediate(resolve));
    try {
      next = i + 1 < parts.length ? build(parts[i + 1]) : [];
    } catch (err) {
      await inserting.catch(() => undefined); // no insert left running when the transaction aborts
      throw err;
    }
    lap('events');
    await inserting;
    lap('insert');
    done += parts[i].length;
    progress?.(done, creates.length);
    if (midway && done >= half && done - parts[i].length < half) await midway();
  }
  for (const part of chunks(plan.updates)) {
    const res = await models.Sample.collection.bulkWrite(
      part.map((u) => ({
        updateOne: {
          filter: { _id: u.current._id, version: u.current.version, deleted: false } as never,
          update: withOutbox({ $set: u.set, $inc: { version: 1 } }, sampleEvent(u.after, 'updated', by, at)),
        },
      })),
      { session, ordered: false },
    );
    if (res.matchedCount !== part.length) throw new StalePlanError();
  }
  // sample groups: one $addToSet per group and kind, one $pull per group a sample left
  const add = new Map<string, { reqId: string | null; lists: Record<string, string[]> }>();
  const pull: { group: string; list: string; id: string }[] = [];
  const listOf = { TUMOR: 'tumors', NORMAL: 'normals', PLASMA: 'plasmas' } as const;
  const join = (s: SampleDoc) => {
    if (!s.sampleGroupId) return;
    const g = add.get(s.sampleGroupId) ?? { reqId: s.testOrderForm?.id ?? null, lists: {} };
    (g.lists[listOf[s.type]] ??= []).push(s._id);
    add.set(s.sampleGroupId, g);
  };
  for (const c of creates) join(c.doc);
  for (const u of plan.updates) {
    if (u.current.sampleGroupId && u.current.sampleGroupId !== u.after.sampleGroupId)
      pull.push({ group: u.current.sampleGroupId, list: listOf[u.after.type], id: u.after._id });
    join(u.after);
  }
  const ops: any[] = pull.map((p) => ({
    updateOne: { filter: { sampleGroupId: p.group }, update: { $pull: { [p.list]: p.id } } },
  }));
  for (const [group, g] of add) {
    const addToSet = Object.fromEntries(Object.entries(g.lists).map(([k, ids]) => [k, { $each: ids }]));
    ops.push({
      updateOne: {
        filter: { sampleGroupId: group },
        update: {
          $addToSet: addToSet,
          $set: { updatedOn: at, updatedBy: by.id },
          $setOnInsert: {
            _id: manifestSampleId('group', group, g.reqId ?? ''),
            testOrderForm: { id: g.reqId },
            ...Object.fromEntries(
              Object.values(listOf)
                .filter((l) => !g.lists[l])
                .map((l) => [l, []]),
            ),
            status: null,
            createdOn: at,
            createdBy: by.id,
            version: 0,
            archived: false,
            deleted: false,
          },
        },
        upsert: true,
      },
    });
  }
  lap('updates');
  for (const part of chunks(ops))
    await models.SampleGroup.collection.bulkWrite(part, { session, ordered: true });
  lap('groups');
}

export type { Connection };
