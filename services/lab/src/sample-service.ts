import { createHash } from 'node:crypto';
import {
  copySamplesError,
  domainPreferenceKey,
  isSubsequentOrder,
  proceedAllowed,
  SAMPLE_MSG,
  sampleTypeOptions,
  samplesMayBeAdded,
  validateSampleForm,
  workOrderNumberFor,
  type ClinicalReviewStatus,
  type DomainPreferenceKey,
  type FieldErrors,
  type OrderType,
  type SampleForm,
  type SampleRequisition,
  type SampleRuleConfig,
  type SpecimenKind,
  type TestStatus,
  type TestType,
} from '@onco/domain';
import { createEvent, outboxForInsert, withOutbox, type SampleChange } from '@onco/events';
import {
  actorOf,
  badRequest,
  conditionalWrite,
  conflict,
  newId,
  notFound,
  toApi,
  type SessionUser,
} from '@onco/platform';
import type { DomainPreferenceDoc, LabModels, SampleDoc, TestOrderDoc } from './models';
import { testOrderScope } from './test-order-service';

/**
 * The lab's samples (spec 2 sections 2.8, 3, 4, 5 and 7 "Samples"). The rules are the domain's
 * (`@onco/domain` lab/samples.ts); this module reads the state they need, refuses what they refuse (400 for a
 * form problem, 409 for a state that forbids the change; nothing is written then), and writes each sample with
 * its `sample` event in ONE document write (the outbox): an insert carries it in `outbox`, an update pushes it
 * in the same conditional update (on `version`, so two edits of one sample never lose a write).
 *
 * The lab knows a requisition only through its test orders (their `testOrderForm` snapshot): a requisition
 * without test orders in the user's scope is unknown here (404), and the data scope of a sample is the scope
 * of its requisition's test orders (so a change of the requisition's account, applied to the test orders by
 * the requisition-changed consumer, moves its samples with it).
 */

export interface SampleServiceOptions {
  /** the one account whose tumor samples need a diagnosis and clinical review REVIEW_COMPLETE to PROCEED */
  reviewAccountId?: string | null;
  /** the clock (tests) */
  now?: () => Date;
}

/** What the lab knows of a requisition, from its test orders. */
export interface LabRequisitionView extends SampleRequisition {
  id: string;
  testRequisitionId: string | null;
  accountId: string | null;
  accountName: string | null;
  physician: { id: string | null; name: string | null } | null;
  patient: { id: string | null; name: string | null; userId: string | null } | null;
  testOrders: {
    id: string;
    testOrderId: string | null;
    testType: TestType;
    orderType: OrderType;
    status: TestStatus;
    limsProjectId: string | null;
  }[];
  diagnosis: string | null;
  clinicalReviewStatus: ClinicalReviewStatus | null;
  /** every test order of the requisition is deleted (the requisition was deleted) */
  deleted: boolean;
}

const LISTS = { TUMOR: 'tumors', NORMAL: 'normals', PLASMA: 'plasmas' } as const satisfies Record<
  SpecimenKind,
  string
>;
type ListName = (typeof LISTS)[keyof typeof LISTS];
const KIND_OF: Record<ListName, SpecimenKind> = { tumors: 'TUMOR', normals: 'NORMAL', plasmas: 'PLASMA' };

const ATTEMPTS = 5;
const today = (now: Date) => now.toISOString().slice(0, 10);
const dayOf = (d: Date | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : null);
const dateOf = (day: string | null | undefined) => (day ? new Date(`${day}T00:00:00.000Z`) : null);
const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** The requisition as the lab knows it, in the user's scope, or 404 (unknown and out of scope look the same). */
export async function labRequisition(
  models: LabModels,
  user: SessionUser,
  id: string,
): Promise<LabRequisitionView> {
  const orders = await models.TestOrder.find({ 'testOrderForm.id': id, ...testOrderScope(user) })
    .sort({ createdOn: 1, _id: 1 })
    .lean<TestOrderDoc[]>()
    .exec();
  if (!orders.length) throw notFound(`Requisition ${id} was not found.`);
  return requisitionView(id, orders);
}

/** The requisition of test orders (all of one requisition, oldest first), as the sample rules see it. */
export function requisitionView(id: string, orders: readonly TestOrderDoc[]): LabRequisitionView {
  const live = orders.filter((o) => !o.deleted);
  const f = (live[0] ?? orders[0]).testOrderForm;
  return {
    id,
    testRequisitionId: f.testRequisitionId ?? null,
    accountId: f.account?.id ?? null,
    accountName: f.account?.name ?? null,
    physician: f.physician ?? null,
    patient: f.patient ?? null,
    testOrders: live.map((o) => ({
      id: o._id,
      testOrderId: o.testOrderId,
      testType: o.testType,
      orderType: o.orderType,
      status: o.status,
      limsProjectId: o.limsProjectId ?? null,
    })),
    diagnosis: f.diagnosis ?? null,
    clinicalReviewStatus: f.reviewStatus ?? null,
    deleted: live.length === 0,
  };
}

/** The distinct domains of the preferences (to recognise an account's domain by name). */
export async function knownDomains(models: LabModels): Promise<string[]> {
  return (await models.DomainPreference.distinct('domain').exec()) as string[];
}

/**
 * The domain preferences a manifest's rows ask for, remembered per key (many rows share a few keys): the
 * answer once the store gave it (so a row's check needs no await), the store's promise until then.
 */
export class DomainPreferenceCache {
  private readonly answers = new Map<string, DomainPreferenceDoc | null>();
  private readonly pending = new Map<string, Promise<DomainPreferenceDoc | null>>();
  /** the requisition part of a key (domain, test and order type), per requisition object (a view is not changed) */
  private readonly bases = new WeakMap<SampleRequisition, string>();
  constructor(
    private readonly models: LabModels,
    private readonly domains: string[],
  ) {}

  get(
    req: SampleRequisition,
    type: SpecimenKind,
    specimenType: string,
  ): DomainPreferenceDoc | null | Promise<DomainPreferenceDoc | null> {
    let base = this.bases.get(req);
    if (base === undefined) {
      const key = domainPreferenceKey(req, type, specimenType, this.domains);
      this.bases.set(req, (base = `${key.domain}|${key.testType}|${key.orderType}`));
    }
    const k = `${base}|${type}|${specimenType}`;
    const answer = this.answers.get(k);
    if (answer !== undefined) return answer;
    let p = this.pending.get(k);
    if (!p) {
      p = findPreference(this.models, domainPreferenceKey(req, type, specimenType, this.domains));
      this.pending.set(k, p);
      void p.then(
        (doc) => this.answers.set(k, doc),
        () => this.pending.delete(k), // a failed read is asked again
      );
    }
    return p;
  }
}

/** The first domain preference for a sample of `type`/`specimenType` on the requisition, or null. */
export async function findDomainPreference(
  models: LabModels,
  req: SampleRequisition,
  type: SpecimenKind,
  specimenType: string,
  domains?: string[],
): Promise<DomainPreferenceDoc | null> {
  const key = domainPreferenceKey(req, type, specimenType, domains ?? (await knownDomains(models)));
  return findPreference(models, key);
}

const findPreference = (models: LabModels, key: DomainPreferenceKey) =>
  models.DomainPreference.findOne(key).sort({ rank: 1, _id: 1 }).lean<DomainPreferenceDoc>().exec();

/** A sample as the API gives it: `id`, collection and received days as 'YYYY-MM-DD'. */
export function sampleOut(doc: SampleDoc) {
  return {
    ...toApi(doc),
    collectedOn: dayOf(doc.collectedOn),
    receivedOn: dayOf(doc.receivedOn),
  };
}

/** The samples requisition (spec 2 section 3): the requisition's tumors, normals and plasmas, and what the rules need. */
export async function samplesRequisition(
  models: LabModels,
  user: SessionUser,
  id: string,
  opts: SampleServiceOptions = {},
) {
  const req = await labRequisition(models, user, id);
  const [samples, groups, domains] = await Promise.all([
    models.Sample.find({ 'testOrderForm.id': id, deleted: false })
      .sort({ createdOn: 1, _id: 1 })
      .lean<SampleDoc[]>()
      .exec(),
    models.SampleGroup.find({ 'testOrderForm.id': id, deleted: false }).sort({ createdOn: 1 }).lean().exec(),
    knownDomains(models),
  ]);
  const of = (type: SpecimenKind) => samples.filter((s) => s.type === type).map(sampleOut);
  const { id: _id, ...requisition } = req;
  return {
    id,
    testRequisitionId: req.testRequisitionId,
    deleted: req.deleted,
    requisition,
    domain: domainPreferenceKey(req, 'TUMOR', '', domains).domain,
    ruleConfig: { reviewAccountId: opts.reviewAccountId ?? null } satisfies SampleRuleConfig,
    /** the sample group of the first PROCEED sample (the dialog pre-fills it) */
    sampleGroupId: samples.find((s) => s.status === 'PROCEED' && s.sampleGroupId)?.sampleGroupId ?? null,
    sampleGroups: groups.map((g) => toApi(g)),
    tumors: of('TUMOR'),
    normals: of('NORMAL'),
    plasmas: of('PLASMA'),
  };
}

/** The sample fields a form may set (dates as 'YYYY-MM-DD'; type and specimen # are checked by the rules). */
export interface SampleInput extends Omit<SampleForm, 'type'> {
  id?: string;
  version?: number;
  patient?: { firstName?: string | null; lastName?: string | null; dateOfBirth?: string | null } | null;
  accessioner?: string | null;
  containerLocationValue?: string | null;
  researcherId?: string | null;
}

export interface SamplesBody {
  id: string;
  tumors?: SampleInput[];
  normals?: SampleInput[];
  plasmas?: SampleInput[];
}

const entriesOf = (body: Omit<SamplesBody, 'id'>) =>
  (Object.keys(KIND_OF) as ListName[]).flatMap((list) =>
    (body[list] ?? []).map((input) => ({ type: KIND_OF[list], input })),
  );

/** Throw the form's problems: 400 with the fields, the message of the most telling one. */
function refuse(errors: FieldErrors, where?: string): never {
  const message = errors.sampleGroupId ?? errors.status ?? Object.values(errors)[0];
  throw badRequest(where ? `${where}: ${message}` : message, { fields: errors });
}

export function sampleEvent(
  doc: SampleDoc,
  change: SampleChange,
  by: { id: string; name: string },
  at: Date,
) {
  return createEvent(
    'sample',
    {
      data: {
        sampleId: doc._id,
        requisitionId: doc.testOrderForm?.id ?? 'unknown',
        type: doc.type,
        status: doc.status,
        limsId: doc.limsId,
        change,
        changedBy: by,
        changedOn: at.toISOString(),
      },
    },
    { now: () => at },
  );
}

const text = (v: string | null | undefined) => (v == null ? null : v.trim() === '' ? null : v.trim());

/** The stored fields of a sample from its form, its requisition and its domain preference. */
function fieldsOf(input: SampleInput, req: LabRequisitionView, pref: DomainPreferenceDoc | null) {
  const [firstName, ...rest] = (req.patient?.name ?? '').split(' ').filter(Boolean);
  return {
    status: input.status ?? null,
    specimenType: text(input.specimenType),
    sampleSite: text(input.sampleSite),
    name: text(input.name),
    limsProjectId: text(input.limsProjectId),
    limsProjectName: text(input.limsProjectName),
    accessionId: text(input.accessionId),
    sampleGroupId: text(input.sampleGroupId),
    collectedOn: dateOf(input.collectedOn),
    receivedOn: dateOf(input.receivedOn),
    trackingNumber: text(input.trackingNumber),
    doNotExhaust: input.doNotExhaust ?? null,
    diagnosis: text(input.diagnosis) ?? req.diagnosis,
    containerLocationValue: text(input.containerLocationValue),
    researcherId: text(input.researcherId),
    workOrderNumber: workOrderNumberFor(input.status, pref?.workOrderNumber),
    product: pref?.product ?? null,
    sequencingProduct: pref?.sequencingProduct ?? null,
    containerTypeId: pref?.containerTypeId ?? null,
    workflowAssignId: pref?.workflowAssignId ?? null,
    patient: {
      id: req.patient?.id ?? null,
      firstName: text(input.patient?.firstName) ?? firstName ?? null,
      lastName: text(input.patient?.lastName) ?? (rest.join(' ') || null),
      dateOfBirth: input.patient?.dateOfBirth ?? null,
    },
    testOrderForm: { id: req.id, testRequisitionId: req.testRequisitionId },
    account: { id: req.accountId, name: req.accountName },
    physician: req.physician,
  };
}

export interface SampleCheckContext {
  mode: 'add' | 'edit';
  current?: SampleDoc;
  today: string;
  cfg: SampleRuleConfig;
  domains: string[];
  /** domain preferences remembered (a manifest checks many rows) */
  prefs?: DomainPreferenceCache;
}

export interface SampleCheck {
  errors: FieldErrors;
  pref: DomainPreferenceDoc | null;
}

/**
 * THE check of one sample write, for the Samples tab (createSamples, updateSamples) and the sample manifests
 * (manifests/plan.ts) alike: the domain's form rules (validateSampleForm), then the domain preference that gives
 * the sample its work order and product data. Returns the problems by field (empty when none) and the preference;
 * synchronously when nothing needs the store (a form problem, or a preference the cache already has), which
 * saves a manifest of 100,000 rows as many awaits.
 */
export function checkSample(
  models: LabModels,
  req: LabRequisitionView,
  type: SpecimenKind,
  input: SampleInput,
  ctx: SampleCheckContext,
): SampleCheck | Promise<SampleCheck> {
  // a form that carries its type already (a manifest's rows) is not copied: copying it cost more than the rules
  const form: SampleForm =
    (input as Partial<SampleForm>).type === type ? (input as SampleForm) : { ...input, type };
  const errors = validateSampleForm(form, {
    mode: ctx.mode,
    today: ctx.today,
    requisition: req,
    config: ctx.cfg,
    current: ctx.current
      ? { type: ctx.current.type, status: ctx.current.status, specimenId: ctx.current.specimenId }
      : null,
  });
  for (const _field in errors) return { errors, pref: null };
  const pref = ctx.prefs
    ? ctx.prefs.get(req, type, input.specimenType!)
    : findDomainPreference(models, req, type, input.specimenType!, ctx.domains);
  return pref instanceof Promise ? pref.then(preferenceCheck) : preferenceCheck(pref);
}

const preferenceCheck = (pref: DomainPreferenceDoc | null): SampleCheck => ({
  errors: pref ? {} : { specimenType: SAMPLE_MSG.noPreference },
  pref,
});

/** checkSample, throwing to refuse: 400 for a form problem, 409 when no domain preference matches. */
async function decide(
  models: LabModels,
  req: LabRequisitionView,
  type: SpecimenKind,
  input: SampleInput,
  ctx: SampleCheckContext,
) {
  const { errors, pref } = await checkSample(models, req, type, input, ctx);
  if (pref) return pref;
  if (errors.specimenType === SAMPLE_MSG.noPreference && Object.keys(errors).length === 1)
    throw conflict(SAMPLE_MSG.noPreference, { fields: { specimenType: SAMPLE_MSG.noPreference } });
  refuse(errors);
}

/** A new sample's document (without its outbox) from a checked form: one shape for every way a sample is added. */
export function newSampleDoc(
  type: SpecimenKind,
  input: SampleInput,
  req: LabRequisitionView,
  pref: DomainPreferenceDoc | null,
  by: { id: string; name: string },
  at: Date,
  ids: { _id?: string; limsId?: string | null } = {},
): SampleDoc {
  const _id = ids._id ?? newId();
  return {
    _id,
    type,
    specimenId: text(input.specimenId),
    // stands in for the LIMS sample id until a LIMS integration assigns it (decision); a manifest may carry it
    limsId: text(ids.limsId) ?? `${type[0]}-${_id.slice(0, 8).toUpperCase()}`,
    accessioner: text(input.accessioner) ?? by.name,
    releasedOn: null,
    ...fieldsOf(input, req, pref),
    copiedFrom: null,
    createdOn: at,
    createdBy: by.id,
    updatedOn: at,
    updatedBy: by.id,
    version: 0,
    archived: false,
    deleted: false,
  } as unknown as SampleDoc;
}

/** The `$set` of a checked change to a sample, and the sample after it (version + 1). */
export function sampleChange(
  current: SampleDoc,
  input: SampleInput,
  req: LabRequisitionView,
  pref: DomainPreferenceDoc | null,
  userId: string,
  at: Date,
) {
  const set = { ...fieldsOf(input, req, pref), updatedOn: at, updatedBy: userId };
  const after = { ...current, ...set, version: current.version + 1 } as SampleDoc;
  return { set, after };
}

/** The form of a stored sample (what a manifest row's blank cells keep). */
export function formOfSample(s: SampleDoc): SampleInput {
  const day = (d: Date | null) => dayOf(d);
  return {
    status: s.status,
    specimenId: s.specimenId,
    specimenType: s.specimenType,
    sampleSite: s.sampleSite,
    name: s.name,
    limsProjectId: s.limsProjectId,
    limsProjectName: s.limsProjectName,
    accessionId: s.accessionId,
    sampleGroupId: s.sampleGroupId,
    collectedOn: day(s.collectedOn),
    receivedOn: day(s.receivedOn),
    trackingNumber: s.trackingNumber,
    doNotExhaust: s.doNotExhaust,
    diagnosis: s.diagnosis,
    containerLocationValue: s.containerLocationValue,
    researcherId: s.researcherId,
    patient: s.patient
      ? { firstName: s.patient.firstName, lastName: s.patient.lastName, dateOfBirth: s.patient.dateOfBirth }
      : null,
  };
}

/** Keep the sample groups in step with a sample's group id (a derived index: tumors, normals, plasmas ids). */
export async function syncSampleGroup(
  models: LabModels,
  sample: SampleDoc,
  previous: string | null,
  userId: string,
) {
  const list = LISTS[sample.type];
  if (previous && previous !== sample.sampleGroupId) {
    await models.SampleGroup.updateOne({ sampleGroupId: previous }, { $pull: { [list]: sample._id } }).exec();
  }
  if (!sample.sampleGroupId) return;
  const update = {
    $addToSet: { [list]: sample._id },
    $set: { updatedOn: new Date(), updatedBy: userId },
    $setOnInsert: {
      _id: newId(),
      testOrderForm: { id: sample.testOrderForm?.id ?? null },
      status: null,
      createdBy: userId,
    },
  };
  try {
    await models.SampleGroup.updateOne({ sampleGroupId: sample.sampleGroupId }, update, {
      upsert: true,
    }).exec();
  } catch (err) {
    // two first samples of one new group at once: the other created it; add to it
    if (!isDuplicateKey(err)) throw err;
    await models.SampleGroup.updateOne({ sampleGroupId: sample.sampleGroupId }, update).exec();
  }
}

/** POST createSampleSource: new samples (every one checked before any is written). */
export async function createSamples(
  models: LabModels,
  user: SessionUser,
  body: SamplesBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const at = (opts.now ?? (() => new Date()))();
  const req = await labRequisition(models, user, body.id);
  if (req.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  if (!samplesMayBeAdded(req.testOrders.map((t) => t.status))) throw conflict(SAMPLE_MSG.addNotAllowed);
  const entries = entriesOf(body);
  if (!entries.length) throw badRequest('Add at least one sample.');
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const domains = await knownDomains(models);
  const decided = [];
  for (const e of entries) {
    if (e.input.id) throw badRequest('A new sample has no id; use updateSampleSource to change one.');
    const pref = await decide(models, req, e.type, e.input, { mode: 'add', today: today(at), cfg, domains });
    decided.push({ ...e, pref });
  }
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const { type, input, pref } of decided) {
    const doc = newSampleDoc(type, input, req, pref, by, at);
    await models.Sample.create({ ...doc, outbox: outboxForInsert(sampleEvent(doc, 'created', by, at)) });
    await syncSampleGroup(models, doc, null, user.id);
    out.push(doc);
  }
  return out;
}

/** One sample of a requisition (not deleted), or 404. */
async function findSample(models: LabModels, requisitionId: string, id: string): Promise<SampleDoc> {
  const doc = await models.Sample.findOne({ _id: id, 'testOrderForm.id': requisitionId, deleted: false })
    .lean<SampleDoc>()
    .exec();
  if (!doc) throw notFound(`Sample ${id} was not found.`);
  return doc;
}

/**
 * PUT updateSampleSource: changes to existing samples. Every change is checked first (nothing is written when
 * one is refused); each is then one conditional update on the version read (the body's `version` when given:
 * a stale one is a 409). Type and specimen # never change.
 */
export async function updateSamples(
  models: LabModels,
  user: SessionUser,
  body: SamplesBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const now = opts.now ?? (() => new Date());
  const req = await labRequisition(models, user, body.id);
  if (req.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  const entries = entriesOf(body);
  if (!entries.length) throw badRequest('Change at least one sample.');
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const domains = await knownDomains(models);
  const check = async (type: SpecimenKind, input: SampleInput) => {
    if (!input.id) throw badRequest('Which sample? The id is missing.');
    const current = await findSample(models, req.id, input.id);
    if (typeof input.version === 'number' && input.version !== current.version)
      throw conflict(SAMPLE_MSG.stale);
    if (current.type !== type) refuse({ type: SAMPLE_MSG.typeLocked });
    const pref = await decide(models, req, type, input, {
      mode: 'edit',
      current,
      today: today(now()),
      cfg,
      domains,
    });
    return { current, pref };
  };
  for (const e of entries) await check(e.type, e.input);
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const { type, input } of entries) {
    const done = await conditionalWrite(
      async () => {
        // decided again on the state read now: a concurrent change may have made the rule refuse
        const { current, pref } = await check(type, input);
        const at = now();
        const { set, after } = sampleChange(current, input, req, pref, user.id, at);
        const res = await models.Sample.updateOne(
          { _id: current._id, version: current.version, deleted: false },
          withOutbox({ $set: set, $inc: { version: 1 } }, sampleEvent(after, 'updated', by, at)),
        ).exec();
        if (res.modifiedCount !== 1) return null;
        await syncSampleGroup(models, after, current.sampleGroupId, user.id);
        return after;
      },
      { strict: typeof input.version === 'number', attempts: ATTEMPTS, message: SAMPLE_MSG.stale },
    );
    out.push(done);
  }
  return out;
}

export interface CopyBody {
  sourceMergeTrfId: string;
  toTestOrderForm: {
    id: string;
    parentTestOrderForm?: { id?: string | null } | null;
    tumors?: { id: string }[];
    normals?: { id: string }[];
    plasmas?: { id: string }[];
  };
}

/** The id of the copy of `sampleId` in `targetId`: the same copy twice is one sample (a retried request). */
const copyId = (sampleId: string, targetId: string) => {
  const h = createHash('sha256').update(`${sampleId}\u0000${targetId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * POST copySampleSource: the selected samples of the source requisition (`sourceMergeTrfId`) are copied into
 * the target (`toTestOrderForm`, whose lists name the selected source sample ids). Both must be requisitions
 * of the same patient in the user's scope; the target must accept each sample (its kind offered, PROCEED
 * allowed), and PROCEED samples copied to a subsequent order need its parent order, else "Samples could not be
 * copied" and nothing is copied. PROCEED copies join the sample group of the first PROCEED sample. Each copy
 * is one insert with its `sample` event (change copied); a copy id derives from the source sample and the
 * target, so a retried copy adds nothing twice.
 */
export async function copySamples(
  models: LabModels,
  user: SessionUser,
  body: CopyBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const at = (opts.now ?? (() => new Date()))();
  const target = body.toTestOrderForm;
  if (body.sourceMergeTrfId === target.id) throw badRequest(SAMPLE_MSG.copySameRequisition);
  const [source, dest] = [
    await labRequisition(models, user, body.sourceMergeTrfId),
    await labRequisition(models, user, target.id),
  ];
  if (dest.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  if (source.patient?.id && dest.patient?.id && source.patient.id !== dest.patient.id)
    throw conflict(SAMPLE_MSG.copyOtherPatient);
  const selected = entriesOf({
    tumors: target.tumors ?? [],
    normals: target.normals ?? [],
    plasmas: target.plasmas ?? [],
  });
  if (!selected.length) throw badRequest(SAMPLE_MSG.copyNothing);
  const samples: SampleDoc[] = [];
  for (const { type, input } of selected) {
    const s = await findSample(models, source.id, input.id!);
    if (s.type !== type)
      throw badRequest(`${SAMPLE_MSG.copyFailed}: sample ${s.limsId ?? s._id} is ${s.type}.`);
    samples.push(s);
  }
  const err = copySamplesError({
    samples,
    targetSubsequent: isSubsequentOrder(dest),
    targetParentId: target.parentTestOrderForm?.id ?? null,
  });
  if (err) throw conflict(err);
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  for (const s of samples) {
    const why = !sampleTypeOptions(dest).includes(s.type)
      ? SAMPLE_MSG.typeNotOffered(s.type)
      : s.status === 'PROCEED' && !proceedAllowed(dest, s.type, cfg)
        ? SAMPLE_MSG.proceedNotAllowed
        : null;
    if (why) throw conflict(SAMPLE_MSG.copyFailed, { reason: why, sampleId: s._id });
  }
  const group = samples.find((s) => s.status === 'PROCEED' && s.sampleGroupId)?.sampleGroupId ?? null;
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const s of samples) {
    const { outbox: _o, ...rest } = s;
    const doc = {
      ...rest,
      _id: copyId(s._id, dest.id),
      sampleGroupId: s.status === 'PROCEED' ? (group ?? s.sampleGroupId) : s.sampleGroupId,
      testOrderForm: { id: dest.id, testRequisitionId: dest.testRequisitionId },
      account: { id: dest.accountId, name: dest.accountName },
      physician: dest.physician,
      copiedFrom: { sampleId: s._id, testOrderFormId: source.id },
      createdOn: at,
      createdBy: user.id,
      updatedOn: at,
      updatedBy: user.id,
      version: 0,
    } as SampleDoc;
    try {
      await models.Sample.create({ ...doc, outbox: outboxForInsert(sampleEvent(doc, 'copied', by, at)) });
    } catch (e) {
      if (!isDuplicateKey(e)) throw e;
      continue; // copied before (a retried request)
    }
    await syncSampleGroup(models, doc, null, user.id);
    out.push(doc);
  }
  return out;
}

/**
 * POST getLimsInfo: the LIMS projects of a patient, from the test orders in the user's scope (not deleted) that
 * have a LIMS project #: one entry per requisition and project, with the test types on it.
 */
export async function limsInfo(models: LabModels, user: SessionUser, patientId: string) {
  const orders = await models.TestOrder.find({
    'testOrderForm.patient.id': patientId,
    deleted: false,
    limsProjectId: { $nin: [null, ''] },
    ...testOrderScope(user),
  })
    .sort({ createdOn: 1, _id: 1 })
    .lean<TestOrderDoc[]>()
    .exec();
  const byKey = new Map<
    string,
    {
      testTypes: TestType[];
      limsProjectId: string;
      testRequisitionId: string | null;
      diagnosis: string | null;
      testOrderFormId: string;
    }
  >();
  for (const o of orders) {
    const key = `${o.testOrderForm.id}\u0000${o.limsProjectId}`;
    const entry = byKey.get(key) ?? {
      testTypes: [],
      limsProjectId: o.limsProjectId!,
      testRequisitionId: o.testOrderForm.testRequisitionId ?? null,
      diagnosis: o.testOrderForm.diagnosis ?? null,
      testOrderFormId: o.testOrderForm.id,
    };
    if (!entry.testTypes.includes(o.testType)) entry.testTypes.push(o.testType);
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

/**
 * The account whose tumor samples need a diagnosis and a completed clinical review to PROCEED: configuration
 * SAMPLE_REVIEW_ACCOUNT (an account id; empty: none).
 */
export function sampleReviewAccount(config: { SAMPLE_REVIEW_ACCOUNT: string }): string | null {
  return config.SAMPLE_REVIEW_ACCOUNT || null;
}
