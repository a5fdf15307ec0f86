import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { createEvent, outboxForInsert, withOutbox } from '@onco/events';
import { isDulPatientNumber } from '@onco/domain';
import {
  actorOf,
  badRequest,
  can,
  conflict,
  inTransaction,
  notFound,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from './models';
import { PATIENT_EDITORS, patientScope } from './routes/patients';
import { and } from './routes/shared';

/**
 * Merge Patients (spec 2 sections 2.6 and 6 "Merge patients", issue "Merge Patients"; docs/decisions.md "Patient
 * merge"). This service owns the patients and their billing entries: a merge marks the duplicates (sources)
 * `mergedInto` the primary (target), moves their billing entries and records the merge (`patient_merges`, the undo
 * entry) in ONE transaction, with its `patient` event (change `merged`) in the merge's outbox. The requisitions
 * service moves the requisitions on that event, one conditional write each with its requisition-changed
 * (`patient-changed`), and says when it is done (`patient-requisitions`); this service's consumers count the
 * progress and set DONE (consumers/patient-merges.ts). Undo is the same in reverse, while nothing new attached
 * to the target.
 */

/** At most this many duplicates in one merge (the list's page size is at most 100; a bound for the request). */
export const MAX_MERGE_SOURCES = 50;

export const MERGE_CONFLICT_FIELDS = [
  { field: 'dateOfBirth', path: 'dateOfBirth', label: 'Date of Birth' },
  { field: 'sex', path: 'birthSex', label: 'Birth Sex' },
  { field: 'mrn', path: 'mrn', label: 'MRN' },
  { field: 'firstName', path: 'firstName', label: 'First Name' },
  { field: 'lastName', path: 'lastName', label: 'Last Name' },
] as const;

export interface MergeConflict {
  field: (typeof MERGE_CONFLICT_FIELDS)[number]['field'];
  label: string;
  target: string | null;
  sources: Array<{ id: string; value: string | null }>;
}

export interface PatientMergeView {
  id: string;
  status: PatientMergeDoc['status'];
  targetId: string;
  sourceIds: string[];
  sources: Array<{ id: string; firstName: string; lastName: string; patientNumber: string }>;
  total: number;
  moved: number;
  createdBy: { id: string; name: string };
  createdOn: Date;
  finishedOn: Date | null;
  undoneBy: { id: string; name: string } | null;
  undoneOn: Date | null;
  /** when the undo finished (UNDONE), null otherwise */
  undoFinishedOn: Date | null;
  undoable: boolean;
  undoBlockedReason: string | null;
}

export const MSG_MERGE_NO_SOURCE = 'Select at least one duplicate patient to merge (sourceId).';
export const MSG_MERGE_TARGET_IS_SOURCE = 'The primary patient cannot also be one of the duplicates.';
export const msgMergeSourceTwice = (id: string) => `Patient ${id} is listed twice among the duplicates.`;
export const msgMergeUnknown = (id: string) => `No patient with id ${id}.`;
export const msgMergeAlreadyMerged = (n: string) =>
  `Patient ${n} has already been merged into another patient.`;
export const msgMergeTargetMerged = (n: string) =>
  `The primary patient ${n} has been merged into another patient; choose that patient instead.`;
export const msgMergeDul = (n: string) => `Patient ${n} is a DUL record and cannot be merged.`;
export const msgMergeNotEditable = (n: string) => `You cannot edit patient ${n}, so it cannot be merged.`;
export const msgMergeInProgress = (n: string) =>
  `Patient ${n} is part of a merge in progress; try again when it has finished.`;
export const MSG_MERGE_CHANGED = 'A patient of this merge changed in the meantime; reload and try again.';
export const MSG_UNDO_NOT_DONE = (status: string) =>
  status === 'RUNNING'
    ? 'The merge is still running; it can be undone once it has finished.'
    : status === 'UNDOING'
      ? 'The merge is already being undone.'
      : 'The merge has already been undone.';
export const MSG_UNDO_TARGET_EDITED =
  'The primary patient was edited after the merge, so it cannot be undone.';
export const MSG_UNDO_BILLING_CHANGED =
  "The primary patient's billing information changed after the merge, so it cannot be undone.";
export const msgUndoNewRequisition = (trf: string) =>
  `A new requisition (${trf}) was attached to the primary patient after the merge, so it cannot be undone.`;

const norm = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const s = String(v).trim();
  return s === '' ? null : s;
};
const same = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
const numberOf = (p: Pick<PatientDoc, 'userId' | '_id'>) => p.userId || p._id;

/** The fields where a duplicate differs from the primary (names compared without case). */
export function mergeConflicts(target: PatientDoc, sources: PatientDoc[]): MergeConflict[] {
  const out: MergeConflict[] = [];
  for (const f of MERGE_CONFLICT_FIELDS) {
    const t = norm((target as any)[f.path]);
    const values = sources.map((s) => ({ id: s._id, value: norm((s as any)[f.path]) }));
    if (values.some((v) => !same(v.value, t)))
      out.push({ field: f.field, label: f.label, target: t, sources: values });
  }
  return out;
}

/** The ids of a `sourceId` query (repeated, or one value; commas also separate). */
export function sourceIdsOf(raw: string | string[] | undefined): string[] {
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export class PatientMergeService {
  constructor(
    private readonly models: ReferenceModels,
    private readonly ctx: Pick<PlatformContext, 'nudgeOutbox'>,
  ) {}

  /**
   * The merge's patients, checked (nothing written): the ids (400), each in the user's scope (404), none merged
   * already, every duplicate editable and without a DUL number, none part of a merge in progress (400).
   */
  async check(user: SessionUser, sourceIds: string[], targetId: string) {
    if (!targetId)
      throw badRequest('Choose the primary patient (targetPatient.id).', { field: 'targetPatient' });
    if (sourceIds.length === 0) throw badRequest(MSG_MERGE_NO_SOURCE, { field: 'sourceId' });
    if (sourceIds.length > MAX_MERGE_SOURCES)
      throw badRequest(`At most ${MAX_MERGE_SOURCES} patients can be merged at once.`, { field: 'sourceId' });
    const seen = new Set<string>();
    for (const id of sourceIds) {
      if (seen.has(id)) throw badRequest(msgMergeSourceTwice(id), { field: 'sourceId' });
      seen.add(id);
    }
    if (seen.has(targetId)) throw badRequest(MSG_MERGE_TARGET_IS_SOURCE, { field: 'targetPatient' });
    const all = [targetId, ...sourceIds];
    const docs = (await this.models.Patient.find(
      and({ _id: { $in: all }, deleted: { $ne: true } }, patientScope(user)),
    )
      .lean()
      .exec()) as PatientDoc[];
    const byId = new Map(docs.map((d) => [d._id, d]));
    for (const id of all) if (!byId.has(id)) throw notFound(msgMergeUnknown(id));
    const target = byId.get(targetId)!;
    const sources = sourceIds.map((id) => byId.get(id)!);
    if (target.mergedInto)
      throw badRequest(msgMergeTargetMerged(numberOf(target)), { field: 'targetPatient' });
    for (const s of sources) {
      if (s.mergedInto) throw badRequest(msgMergeAlreadyMerged(numberOf(s)), { field: 'sourceId' });
      if (isDulPatientNumber(s.userId)) throw badRequest(msgMergeDul(numberOf(s)), { field: 'sourceId' });
    }
    // every duplicate must be editable by the user (the list's canEdit: spec 2 section 6 "Patients")
    if (!PATIENT_EDITORS.some((p) => can(user, p)))
      throw badRequest(msgMergeNotEditable(numberOf(sources[0])), { field: 'sourceId' });
    const busy = (await this.models.PatientMerge.findOne(
      {
        status: { $in: ['RUNNING', 'UNDOING'] },
        $or: [{ sourceIds: { $in: all } }, { targetId: { $in: all } }],
      },
      { sourceIds: 1, targetId: 1 },
    )
      .lean()
      .exec()) as Pick<PatientMergeDoc, 'sourceIds' | 'targetId'> | null;
    if (busy) {
      const involved = [busy.targetId, ...busy.sourceIds].find((id) => byId.has(id))!;
      throw badRequest(msgMergeInProgress(numberOf(byId.get(involved)!)), { field: 'sourceId' });
    }
    return { target, sources };
  }

  /** The submitted requisitions of the patients as this service knows them (patient_requisitions). */
  private requisitionCount(ids: string[]): Promise<number> {
    return this.models.PatientRequisition.countDocuments({ patientId: { $in: ids } }).exec();
  }

  /** What a merge would do: the conflicting fields, the requisitions and billing entries that would move. */
  async preview(user: SessionUser, sourceIds: string[], targetId: string) {
    const { target, sources } = await this.check(user, sourceIds, targetId);
    const [requisitions, billingEntries] = await Promise.all([
      this.requisitionCount(sourceIds),
      this.models.PatientBilling.countDocuments({
        patientId: { $in: sourceIds },
        deleted: { $ne: true },
      }).exec(),
    ]);
    return {
      target,
      sources,
      conflicts: mergeConflicts(target, sources),
      moves: { requisitions, billingEntries },
    };
  }

  /**
   * Merge: one transaction marks the duplicates merged (conditional on the versions read), moves their billing
   * entries (not default when the primary has one; else the first duplicate's default stays the only one), adds
   * their accounts, physicians and locations to the primary and inserts the merge with its `patient` event.
   */
  async merge(user: SessionUser, sourceIds: string[], targetId: string, version?: number) {
    const { target, sources } = await this.check(user, sourceIds, targetId);
    if (version !== undefined && version !== target.version) throw conflict();
    const { Patient, PatientBilling, PatientMerge } = this.models;
    const actor = actorOf(user);
    const mergeId = randomUUID();
    const diff = (k: 'accountIds' | 'physicianIds' | 'hospitalLocationIds') => {
      const have = new Set(target[k] ?? []);
      return [...new Set(sources.flatMap((s) => s[k] ?? []))].filter((v) => !have.has(v));
    };
    const addedParties = {
      accountIds: diff('accountIds'),
      physicianIds: diff('physicianIds'),
      hospitalLocationIds: diff('hospitalLocationIds'),
    };
    const estimate = await this.requisitionCount(sourceIds);
    const created = await inTransaction(Patient.db, async (session: ClientSession) => {
      const now = new Date();
      const t = await Patient.findOneAndUpdate(
        { _id: targetId, version: target.version, mergedInto: null, deleted: { $ne: true } },
        {
          $addToSet: {
            accountIds: { $each: addedParties.accountIds },
            physicianIds: { $each: addedParties.physicianIds },
            hospitalLocationIds: { $each: addedParties.hospitalLocationIds },
          },
          $set: { updatedOn: now, updatedBy: user.id },
          $inc: { version: 1, billingsVersion: 1 },
        },
        { session, returnDocument: 'after', projection: { version: 1, billingsVersion: 1 } },
      )
        .lean()
        .exec();
      if (!t) throw conflict(MSG_MERGE_CHANGED);
      for (const s of sources) {
        const res = await Patient.updateOne(
          { _id: s._id, version: s.version, mergedInto: null, deleted: { $ne: true } },
          {
            $set: { mergedInto: targetId, mergeId, updatedOn: now, updatedBy: user.id },
            $inc: { version: 1, billingsVersion: 1 },
          },
          { session },
        ).exec();
        if (res.matchedCount !== 1) throw conflict(MSG_MERGE_CHANGED);
      }
      const moving = (await PatientBilling.find(
        { patientId: { $in: sourceIds }, deleted: { $ne: true } },
        { patientId: 1, isDefault: 1, updatedOn: 1 },
      )
        .session(session)
        .lean()
        .exec()) as Array<{ _id: string; patientId: string; isDefault: boolean }>;
      const targetHasDefault = Boolean(
        await PatientBilling.exists({ patientId: targetId, isDefault: true, deleted: { $ne: true } }).session(
          session,
        ),
      );
      // one default per patient: the primary's, else the first duplicate's (in the order given)
      const firstDefault = targetHasDefault
        ? null
        : (sourceIds.map((id) => moving.find((b) => b.patientId === id && b.isDefault)).find(Boolean) ??
          null);
      if (moving.length) {
        await PatientBilling.updateMany(
          { _id: { $in: moving.map((b) => b._id) } },
          { $set: { patientId: targetId, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } },
          { session },
        ).exec();
        const cleared = moving.filter((b) => b.isDefault && b._id !== firstDefault?._id).map((b) => b._id);
        if (cleared.length)
          await PatientBilling.updateMany(
            { _id: { $in: cleared } },
            { $set: { isDefault: false } },
            { session },
          ).exec();
      }
      const event = createEvent('patient', {
        data: {
          patientId: targetId,
          change: 'merged',
          mergeId,
          sourceIds,
          patientNumber: target.userId ?? null,
          patientName: target.name || `${target.firstName} ${target.lastName}`.trim(),
          firstName: target.firstName ?? null,
          middleName: target.middleName ?? null,
          lastName: target.lastName ?? null,
          changedBy: actor,
          changedOn: now.toISOString(),
        },
      });
      const [doc] = await PatientMerge.create(
        [
          {
            _id: mergeId,
            status: 'RUNNING',
            targetId,
            sourceIds,
            sources: sources.map((s) => ({
              id: s._id,
              firstName: s.firstName,
              lastName: s.lastName,
              userId: s.userId,
            })),
            targetVersion: t.version,
            targetBillingsVersion: t.billingsVersion ?? 0,
            addedParties,
            billings: moving.map((b) => ({ id: b._id, fromPatientId: b.patientId, wasDefault: b.isDefault })),
            total: estimate,
            movedRequisitionIds: [],
            createdBy: user.id,
            createdByName: actor.name,
            createdOn: now,
            updatedBy: user.id,
            updatedOn: now,
            outbox: outboxForInsert(event),
          },
        ],
        { session },
      );
      return doc.toObject() as PatientMergeDoc;
    });
    this.ctx.nudgeOutbox();
    return this.present(created);
  }

  /** One merge, when its primary patient is in the user's scope (404 otherwise). */
  async get(user: SessionUser, mergeId: string): Promise<PatientMergeView> {
    const merge = (await this.models.PatientMerge.findById(mergeId, { outbox: 0 })
      .lean()
      .exec()) as PatientMergeDoc | null;
    if (!merge || !(await this.inScope(user, merge.targetId))) throw notFound('No such patient merge.');
    return this.present(merge);
  }

  /** The merges into a patient (in scope, else 404), newest first. */
  async listFor(user: SessionUser, patientId: string): Promise<PatientMergeView[]> {
    if (!(await this.inScope(user, patientId))) throw notFound();
    const rows = (await this.models.PatientMerge.find({ targetId: patientId }, { outbox: 0 })
      .sort({ createdOn: -1 })
      .limit(100)
      .lean()
      .exec()) as PatientMergeDoc[];
    const target = await this.targetState(patientId);
    return Promise.all(rows.map((m) => this.present(m, target)));
  }

  /**
   * Undo a DONE merge while nothing new attached to the primary (409 with the reason otherwise): one transaction
   * gives the duplicates back their records (not merged, their billing entries and defaults back, the primary's
   * added parties removed) and sets the merge UNDOING with its `patient` event (`merge-undone`); the
   * requisitions service moves the requisitions back and the merge becomes UNDONE.
   */
  async undo(user: SessionUser, mergeId: string): Promise<PatientMergeView> {
    const merge = (await this.models.PatientMerge.findById(mergeId, { outbox: 0 })
      .lean()
      .exec()) as PatientMergeDoc | null;
    if (!merge || !(await this.inScope(user, merge.targetId))) throw notFound('No such patient merge.');
    const target = await this.targetState(merge.targetId);
    const reason = this.blockedReason(merge, target);
    if (reason) throw conflict(reason);
    const { Patient, PatientBilling, PatientMerge } = this.models;
    const actor = actorOf(user);
    const t = target!;
    const updated = await inTransaction(Patient.db, async (session: ClientSession) => {
      const now = new Date();
      const res = await Patient.updateOne(
        { _id: merge.targetId, version: merge.targetVersion, billingsVersion: merge.targetBillingsVersion },
        {
          $pull: {
            accountIds: { $in: merge.addedParties?.accountIds ?? [] },
            physicianIds: { $in: merge.addedParties?.physicianIds ?? [] },
            hospitalLocationIds: { $in: merge.addedParties?.hospitalLocationIds ?? [] },
          },
          $set: { updatedOn: now, updatedBy: user.id },
          $inc: { version: 1, billingsVersion: 1 },
        },
        { session },
      ).exec();
      if (res.matchedCount !== 1) throw conflict(MSG_UNDO_TARGET_EDITED);
      await Patient.updateMany(
        { _id: { $in: merge.sourceIds }, mergeId },
        {
          $set: { mergedInto: null, mergeId: null, updatedOn: now, updatedBy: user.id },
          $inc: { version: 1, billingsVersion: 1 },
        },
        { session },
      ).exec();
      for (const b of merge.billings ?? []) {
        await PatientBilling.updateOne(
          { _id: b.id, patientId: merge.targetId },
          {
            $set: { patientId: b.fromPatientId, isDefault: b.wasDefault, updatedOn: now, updatedBy: user.id },
            $inc: { version: 1 },
          },
          { session },
        ).exec();
      }
      const event = createEvent('patient', {
        data: {
          patientId: merge.targetId,
          change: 'merge-undone',
          mergeId,
          sourceIds: merge.sourceIds,
          patientNumber: t.userId ?? null,
          patientName: t.name || `${t.firstName} ${t.lastName}`.trim(),
          firstName: t.firstName ?? null,
          middleName: t.middleName ?? null,
          lastName: t.lastName ?? null,
          changedBy: actor,
          changedOn: now.toISOString(),
        },
      });
      const doc = await PatientMerge.findOneAndUpdate(
        { _id: mergeId, status: 'DONE', version: merge.version, undoBlockedReason: null },
        withOutbox(
          {
            $set: {
              status: 'UNDOING',
              undoneBy: user.id,
              undoneByName: actor.name,
              undoneOn: now,
              updatedOn: now,
              updatedBy: user.id,
            },
            $inc: { version: 1 },
          },
          event,
        ),
        { session, returnDocument: 'after', projection: { outbox: 0 } },
      )
        .lean()
        .exec();
      if (!doc) throw conflict('The merge changed in the meantime; reload and try again.');
      return doc as PatientMergeDoc;
    });
    this.ctx.nudgeOutbox();
    return this.present(updated);
  }

  private async inScope(user: SessionUser, patientId: string): Promise<boolean> {
    return Boolean(
      await this.models.Patient.exists(and({ _id: patientId, deleted: { $ne: true } }, patientScope(user))),
    );
  }

  private async targetState(id: string) {
    return (await this.models.Patient.findById(id, {
      version: 1,
      billingsVersion: 1,
      userId: 1,
      name: 1,
      firstName: 1,
      middleName: 1,
      lastName: 1,
      mergedInto: 1,
    })
      .lean()
      .exec()) as PatientDoc | null;
  }

  /** Why the merge cannot be undone now, or null. */
  blockedReason(merge: PatientMergeDoc, target: PatientDoc | null): string | null {
    if (merge.status !== 'DONE') return MSG_UNDO_NOT_DONE(merge.status);
    if (merge.undoBlockedReason) return merge.undoBlockedReason;
    if (!target || target.mergedInto)
      return 'The primary patient has since been merged into another patient.';
    if (target.version !== merge.targetVersion) return MSG_UNDO_TARGET_EDITED;
    if ((target.billingsVersion ?? 0) !== (merge.targetBillingsVersion ?? 0)) return MSG_UNDO_BILLING_CHANGED;
    return null;
  }

  async present(merge: PatientMergeDoc, target?: PatientDoc | null): Promise<PatientMergeView> {
    const t = target === undefined ? await this.targetState(merge.targetId) : target;
    const reason = this.blockedReason(merge, t);
    const moved =
      merge.status === 'DONE'
        ? merge.total
        : merge.status === 'UNDONE'
          ? 0
          : Math.min(merge.movedRequisitionIds?.length ?? 0, merge.total);
    return {
      id: merge._id,
      status: merge.status,
      targetId: merge.targetId,
      sourceIds: merge.sourceIds,
      sources: (merge.sources ?? []).map((s) => ({
        id: s.id,
        firstName: s.firstName,
        lastName: s.lastName,
        patientNumber: s.userId,
      })),
      total: merge.total,
      moved,
      createdBy: { id: merge.createdBy ?? '', name: merge.createdByName ?? '' },
      createdOn: merge.createdOn,
      finishedOn: merge.finishedOn ?? null,
      undoneBy: merge.undoneBy ? { id: merge.undoneBy, name: merge.undoneByName ?? '' } : null,
      undoneOn: merge.undoneOn ?? null,
      undoFinishedOn: merge.undoFinishedOn ?? null,
      undoable: reason === null,
      undoBlockedReason: reason,
    };
  }
}
