import { conflict, notFound, type PlatformContext, type SessionUser } from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { mergePatients } from './merge';
import { checkMerge, previewMerge } from './preview';
import type { PatientMergeView } from './rules';
import { undoMerge } from './undo';
import { blockedReason, patientInScope, presentMerge, targetState } from './view';

export * from './rules';

/**
 * Merge Patients (spec 2 sections 2.6 and 6 "Merge patients", issue "Merge Patients"; docs/decisions.md "Patient
 * merge"). This service owns the patients and their billing entries: a merge marks the duplicates (sources)
 * `mergedInto` the primary (target), moves their billing entries and records the merge (`patient_merges`, the undo
 * entry) in ONE transaction, with its `patient` event (change `merged`) in the merge's outbox. The requisitions
 * service moves the requisitions on that event, one conditional write each with its requisition-changed
 * (`patient-changed`), and says when it is done (`patient-requisitions`); this service's consumers count the
 * progress and set DONE (consumers/patient-merges.ts). Undo is the same in reverse, while nothing new attached
 * to the target.
 *
 * Its parts: rules.ts (limits, messages, conflicts), preview.ts (the checks and the preview), merge.ts, undo.ts
 * and view.ts (a merge as replies show it, and whether it may be undone).
 */
export class PatientMergeService {
  constructor(
    private readonly models: ReferenceModels,
    private readonly ctx: Pick<PlatformContext, 'nudgeOutbox'>,
  ) {}

  /**
   * The merge's patients, checked (nothing written): the ids (400), each in the user's scope (404), none merged
   * already, every duplicate editable and without a DUL number, none part of a merge in progress (400).
   */
  check(user: SessionUser, sourceIds: string[], targetId: string) {
    return checkMerge(this.models, user, sourceIds, targetId);
  }

  /** What a merge would do: the conflicting fields, the requisitions and billing entries that would move. */
  preview(user: SessionUser, sourceIds: string[], targetId: string) {
    return previewMerge(this.models, user, sourceIds, targetId);
  }

  /**
   * Merge: one transaction marks the duplicates merged (conditional on the versions read), moves their billing
   * entries (not default when the primary has one; else the first duplicate's default stays the only one), adds
   * their accounts, physicians and locations to the primary and inserts the merge with its `patient` event.
   */
  async merge(user: SessionUser, sourceIds: string[], targetId: string, version?: number) {
    const checked = await this.check(user, sourceIds, targetId);
    if (version !== undefined && version !== checked.target.version) throw conflict();
    const created = await mergePatients(this.models, user, checked, sourceIds, targetId);
    this.ctx.nudgeOutbox();
    return this.present(created);
  }

  /** One merge, when its primary patient is in the user's scope (404 otherwise). */
  async get(user: SessionUser, mergeId: string): Promise<PatientMergeView> {
    const merge = await this.findInScope(user, mergeId);
    return this.present(merge);
  }

  /** The merges into a patient (in scope, else 404), newest first. */
  async listFor(user: SessionUser, patientId: string): Promise<PatientMergeView[]> {
    if (!(await patientInScope(this.models, user, patientId))) throw notFound();
    const rows = (await this.models.PatientMerge.find({ targetId: patientId }, { outbox: 0 })
      .sort({ createdOn: -1 })
      .limit(100)
      .lean()
      .exec()) as PatientMergeDoc[];
    const target = await targetState(this.models, patientId);
    return Promise.all(rows.map((m) => this.present(m, target)));
  }

  /**
   * Undo a DONE merge while nothing new attached to the primary (409 with the reason otherwise): one transaction
   * gives the duplicates back their records (not merged, their billing entries and defaults back, the primary's
   * added parties removed) and sets the merge UNDOING with its `patient` event (`merge-undone`); the
   * requisitions service moves the requisitions back and the merge becomes UNDONE.
   */
  async undo(user: SessionUser, mergeId: string): Promise<PatientMergeView> {
    const merge = await this.findInScope(user, mergeId);
    const target = await targetState(this.models, merge.targetId);
    const reason = this.blockedReason(merge, target);
    if (reason) throw conflict(reason);
    const updated = await undoMerge(this.models, user, mergeId, merge, target!);
    this.ctx.nudgeOutbox();
    return this.present(updated);
  }

  /** Why the merge cannot be undone now, or null. */
  blockedReason(merge: PatientMergeDoc, target: PatientDoc | null): string | null {
    return blockedReason(merge, target);
  }

  /** A merge as replies show it (the primary's state given, or read). */
  present(merge: PatientMergeDoc, target?: PatientDoc | null): Promise<PatientMergeView> {
    return presentMerge(this.models, merge, target);
  }

  /** The merge, when its primary patient is in the user's scope (404 otherwise). */
  private async findInScope(user: SessionUser, mergeId: string): Promise<PatientMergeDoc> {
    const merge = (await this.models.PatientMerge.findById(mergeId, { outbox: 0 })
      .lean()
      .exec()) as PatientMergeDoc | null;
    if (!merge || !(await patientInScope(this.models, user, merge.targetId)))
      throw notFound('No such patient merge.');
    return merge;
  }
}
