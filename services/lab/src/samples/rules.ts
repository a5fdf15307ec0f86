import {
  SAMPLE_MSG,
  validateSampleForm,
  workOrderNumberFor,
  type FieldErrors,
  type SampleForm,
  type SampleRuleConfig,
  type SpecimenKind,
} from '@onco/domain';
import { createEvent, type SampleChange } from '@onco/events';
import type { ClientSession } from 'mongoose';
import { badRequest, conflict, newId, newRecordAudit, toApi, type AuditTrail } from '@onco/platform';
import type { DomainPreferenceDoc, LabModels, SampleDoc, SampleGroupDoc } from '../models';
import { inLabTransaction, sampleGroupChange } from '../use-cases/audit';
import type { LabRequisitionView } from './view';
import { DomainPreferenceCache, findDomainPreference } from './preferences';

const LISTS = { TUMOR: 'tumors', NORMAL: 'normals', PLASMA: 'plasmas' } as const satisfies Record<
  SpecimenKind,
  string
>;
type ListName = (typeof LISTS)[keyof typeof LISTS];
const KIND_OF: Record<ListName, SpecimenKind> = { tumors: 'TUMOR', normals: 'NORMAL', plasmas: 'PLASMA' };

export const ATTEMPTS = 5;
export const today = (now: Date) => now.toISOString().slice(0, 10);
const dayOf = (d: Date | null | undefined) => (d ? new Date(d).toISOString().slice(0, 10) : null);
const dateOf = (day: string | null | undefined) => (day ? new Date(`${day}T00:00:00.000Z`) : null);
export const isDuplicateKey = (err: unknown) => (err as { code?: unknown })?.code === 11000;

/** A sample as the API gives it: `id`, collection and received days as 'YYYY-MM-DD'. */
export function sampleOut(doc: SampleDoc) {
  return {
    ...toApi(doc),
    collectedOn: dayOf(doc.collectedOn),
    receivedOn: dayOf(doc.receivedOn),
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

export const entriesOf = (body: Omit<SamplesBody, 'id'>) =>
  (Object.keys(KIND_OF) as ListName[]).flatMap((list) =>
    (body[list] ?? []).map((input) => ({ type: KIND_OF[list], input })),
  );

/** Throw the form's problems: 400 with the fields, the message of the most telling one. */
export function refuse(errors: FieldErrors, where?: string): never {
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
export async function decide(
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
    ...newRecordAudit(by.id, at),
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

/**
 * Keep the sample groups in step with a sample's group id (a derived index: tumors, normals, plasmas ids), in the
 * sample's transaction (`session`, inSampleTransaction), each group written with its entry (`sample-group`, the
 * sample's patient and account): the sample leaves its previous group and joins its group, made when missing. A
 * group that is already as it should be is not written, and nothing is recorded for it.
 */
export async function syncSampleGroup(
  session: ClientSession,
  trail: AuditTrail,
  models: LabModels,
  sample: SampleDoc,
  previous: string | null,
  userId: string,
  at: Date,
): Promise<void> {
  const list = LISTS[sample.type];
  const describe = sampleGroupChange([sample]);
  /** the sample into or out of the group named `name`, when it exists (false when it does not) */
  const change = async (name: string, op: '$addToSet' | '$pull') => {
    const group = await models.SampleGroup.findOne({ sampleGroupId: name }, null, { session })
      .lean<SampleGroupDoc>()
      .exec();
    if (!group) return false;
    if ((group[list] ?? []).includes(sample._id) === (op === '$addToSet')) return true;
    await trail.updateIn(
      session,
      models.SampleGroup,
      { _id: group._id },
      { [op]: { [list]: sample._id }, $set: { updatedOn: at, updatedBy: userId } },
      describe,
      // read in this transaction: the state the update applies to
      { before: group as SampleGroupDoc & Record<string, unknown> },
    );
    return true;
  };
  if (previous && previous !== sample.sampleGroupId) await change(previous, '$pull');
  if (!sample.sampleGroupId || (await change(sample.sampleGroupId, '$addToSet'))) return;
  await trail.createIn(
    session,
    models.SampleGroup,
    {
      _id: newId(),
      sampleGroupId: sample.sampleGroupId,
      status: null,
      [list]: [sample._id],
      testOrderForm: { id: sample.testOrderForm?.id ?? null },
      ...newRecordAudit(userId, at),
    },
    describe,
  );
}

/** A sample group made meanwhile by another transaction (the first samples of one new group at once). */
export const isGroupTaken = (err: unknown) =>
  isDuplicateKey(err) && /sampleGroupId/.test(String((err as Error).message));

/**
 * A sample's write and its groups' (syncSampleGroup), each with its entry, in ONE transaction (inLabTransaction):
 * run again when the first samples of one new group raced each other (the loser finds the group the other made).
 */
export async function inSampleTransaction<T>(
  models: LabModels,
  fn: (session: ClientSession, trail: AuditTrail) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await inLabTransaction(models, fn);
    } catch (err) {
      if (attempt >= ATTEMPTS || !isGroupTaken(err)) throw err;
    }
  }
}
