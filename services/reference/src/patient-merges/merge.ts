import { randomUUID } from 'node:crypto';
import type { ClientSession } from 'mongoose';
import { createEvent, outboxForInsert } from '@onco/events';
import {
  actorOf,
  conflict,
  currentActor,
  inTransaction,
  updateReadingBoth,
  type SessionUser,
} from '@onco/platform';
import type { PatientDoc, PatientMergeDoc, ReferenceModels } from '../models';
import { patientChangeInput, referenceTrail } from '../use-cases/audit';
import { requisitionCount } from './preview';
import { MSG_MERGE_CHANGED } from './rules';

type Actor = ReturnType<typeof actorOf>;
type Parties = Record<'accountIds' | 'physicianIds' | 'hospitalLocationIds', string[]>;
type MovingBilling = { _id: string; patientId: string; isDefault: boolean };
/** A patient document as it was before a write of the merge and after it (its audit entry's). */
export type PatientWrite = { before: Record<string, unknown>; after: Record<string, unknown> };

/** The `patient` event of a merge or of its undo, naming the primary patient as it is. */
export function patientMergeEvent(
  patientId: string,
  t: Pick<PatientDoc, 'userId' | 'name' | 'firstName' | 'middleName' | 'lastName'>,
  change: 'merged' | 'merge-undone',
  o: { mergeId: string; sourceIds: string[]; actor: Actor; now: Date },
) {
  return createEvent('patient', {
    data: {
      patientId,
      change,
      mergeId: o.mergeId,
      sourceIds: o.sourceIds,
      patientNumber: t.userId ?? null,
      patientName: t.name || `${t.firstName} ${t.lastName}`.trim(),
      firstName: t.firstName ?? null,
      middleName: t.middleName ?? null,
      lastName: t.lastName ?? null,
      changedBy: o.actor,
      changedOn: o.now.toISOString(),
    },
  });
}

/** The duplicates' accounts, physicians and locations the primary does not have yet. */
function addedPartiesOf(target: PatientDoc, sources: PatientDoc[]): Parties {
  const diff = (k: keyof Parties) => {
    const have = new Set(target[k] ?? []);
    return [...new Set(sources.flatMap((s) => s[k] ?? []))].filter((v) => !have.has(v));
  };
  return {
    accountIds: diff('accountIds'),
    physicianIds: diff('physicianIds'),
    hospitalLocationIds: diff('hospitalLocationIds'),
  };
}

/**
 * The primary gets the added parties and the duplicates are marked merged, each conditional on the version read
 * (a 409 when one changed); answers the primary's new versions and each patient before and after (the primary
 * first), for their audit entries.
 */
async function markMerged(
  { Patient }: ReferenceModels,
  session: ClientSession,
  m: {
    target: PatientDoc;
    sources: PatientDoc[];
    mergeId: string;
    addedParties: Parties;
    userId: string;
    now: Date;
  },
) {
  const target = await updateReadingBoth(
    session,
    Patient,
    { _id: m.target._id, version: m.target.version, mergedInto: null, deleted: { $ne: true } },
    {
      $addToSet: {
        accountIds: { $each: m.addedParties.accountIds },
        physicianIds: { $each: m.addedParties.physicianIds },
        hospitalLocationIds: { $each: m.addedParties.hospitalLocationIds },
      },
      $set: { updatedOn: m.now, updatedBy: m.userId },
      $inc: { version: 1, billingsVersion: 1 },
    },
  );
  if (!target) throw conflict(MSG_MERGE_CHANGED);
  const written: PatientWrite[] = [target];
  for (const s of m.sources) {
    const res = await updateReadingBoth(
      session,
      Patient,
      { _id: s._id, version: s.version, mergedInto: null, deleted: { $ne: true } },
      {
        $set: { mergedInto: m.target._id, mergeId: m.mergeId, updatedOn: m.now, updatedBy: m.userId },
        $inc: { version: 1, billingsVersion: 1 },
      },
    );
    if (!res) throw conflict(MSG_MERGE_CHANGED);
    written.push(res);
  }
  const t = target.after as Pick<PatientDoc, 'version' | 'billingsVersion'>;
  return { t, written };
}

/**
 * The audit entries of a merge's (or its undo's) patient writes, one a patient: the fields each changed, and
 * `billings` for each patient whose billing entries moved (to it or from it).
 */
export async function recordPatientWrites(
  models: ReferenceModels,
  session: ClientSession,
  written: PatientWrite[],
  billingsOf: Set<string>,
  actor: ReturnType<typeof currentActor>,
) {
  await referenceTrail(models.Patient.db).recordIn(
    session,
    written.map((w) =>
      patientChangeInput(w.before, w.after, {
        extra: billingsOf.has(String(w.after._id)) ? ['billings'] : [],
      }),
    ),
    actor,
  );
}

/**
 * The duplicates' billing entries move to the primary; one default per patient: the primary's, else the first
 * duplicate's (in the order given). Answers the entries moved, as they were.
 */
async function moveBillings(
  { PatientBilling }: ReferenceModels,
  session: ClientSession,
  m: { sourceIds: string[]; targetId: string; userId: string; now: Date },
): Promise<MovingBilling[]> {
  const moving = (await PatientBilling.find(
    { patientId: { $in: m.sourceIds }, deleted: { $ne: true } },
    { patientId: 1, isDefault: 1, updatedOn: 1 },
  )
    .session(session)
    .lean()
    .exec()) as MovingBilling[];
  const targetHasDefault = Boolean(
    await PatientBilling.exists({ patientId: m.targetId, isDefault: true, deleted: { $ne: true } }).session(
      session,
    ),
  );
  const firstDefault = targetHasDefault
    ? null
    : (m.sourceIds.map((id) => moving.find((b) => b.patientId === id && b.isDefault)).find(Boolean) ?? null);
  if (moving.length) {
    await PatientBilling.updateMany(
      { _id: { $in: moving.map((b) => b._id) } },
      { $set: { patientId: m.targetId, updatedOn: m.now, updatedBy: m.userId }, $inc: { version: 1 } },
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
  return moving;
}

/**
 * Merge the checked patients: one transaction marks the duplicates merged (conditional on the versions read),
 * moves their billing entries (not default when the primary has one; else the first duplicate's default stays
 * the only one), adds their accounts, physicians and locations to the primary and inserts the merge with its
 * `patient` event; one audit entry a patient written (docs/audit.md "Changes"), in the same transaction.
 */
export async function mergePatients(
  models: ReferenceModels,
  user: SessionUser,
  checked: { target: PatientDoc; sources: PatientDoc[] },
  sourceIds: string[],
  targetId: string,
): Promise<PatientMergeDoc> {
  const { target, sources } = checked;
  const actor = actorOf(user);
  const mergeId = randomUUID();
  const addedParties = addedPartiesOf(target, sources);
  const estimate = await requisitionCount(models, sourceIds);
  const auditActor = currentActor();
  const merged = await inTransaction(models.Patient.db, async (session: ClientSession) => {
    const now = new Date();
    const userId = user.id;
    const { t, written } = await markMerged(models, session, {
      target,
      sources,
      mergeId,
      addedParties,
      userId,
      now,
    });
    const moving = await moveBillings(models, session, { sourceIds, targetId, userId, now });
    const moved = new Set(moving.length ? [targetId, ...moving.map((b) => b.patientId)] : []);
    await recordPatientWrites(models, session, written, moved, auditActor);
    const event = patientMergeEvent(targetId, target, 'merged', { mergeId, sourceIds, actor, now });
    const [doc] = await models.PatientMerge.create(
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
  referenceTrail(models.Patient.db).recorded();
  return merged;
}
