/**
 * How a change of a patient reads in the audit trail (docs/audit.md "Changes"): the patient, itself its patient,
 * and its accounts; `create` for a new patient, else `update`; the names of the fields changed, never values.
 * A single write commits with its entry through the platform's AuditTrail.update / create. The writes that are
 * already one transaction of several documents (the billing entries, Merge Patients and its undo, the bulk edit)
 * record their entries in that transaction with the helpers below, so they commit or roll back together too.
 */
import type { ClientSession, Connection, Model } from 'mongoose';
import {
  auditTrailOf,
  auditUnavailable,
  BOOKKEEPING_FIELDS,
  changedPaths,
  currentActor,
  isWriteConflict,
  type AuditActor,
  type AuditInput,
  type AuditTrail,
  type ChangeDescription,
} from '@onco/platform';
import type { PatientDoc } from '../models';

type Doc = Record<string, unknown>;

export const PATIENT_CHANGE: ChangeDescription<PatientDoc & Doc> = {
  type: 'patient',
  subject: (doc) => ({ id: String(doc._id), patientId: String(doc._id), accountIds: doc.accountIds ?? [] }),
  // a create's own bookkeeping, and the counter that serializes the patient's billing writes
  ignore: ['createdOn', 'createdBy', 'billingsVersion'],
};

/** The audit trail of the connection the reference models live on (the process's one, as auditTrailOf(ctx)). */
export const patientTrail = (conn: Connection): AuditTrail => auditTrailOf({ mongo: conn });

/** The entry of a change of a patient: its before and after, plus names the documents do not show (`billings.x`). */
export function patientChangeInput(
  before: Doc | null,
  after: Doc,
  o: { changes?: string[]; extra?: string[] } = {},
): AuditInput {
  const subject = PATIENT_CHANGE.subject(after as PatientDoc & Doc);
  const own =
    o.changes ??
    changedPaths(before, after, { ignore: [...BOOKKEEPING_FIELDS, ...(PATIENT_CHANGE.ignore ?? [])] });
  return {
    what: { type: 'patient', id: subject.id, patientId: subject.patientId },
    action: before ? 'update' : 'create',
    accountIds: subject.accountIds,
    changes: [...new Set([...own, ...(o.extra ?? [])])].sort(),
  };
}

/**
 * Record entries inside a transaction the caller runs (its `session`): when they cannot be written the whole
 * transaction is rolled back with a 503 AUDIT_UNAVAILABLE (a write conflict still runs it again). Call
 * `trail.recorded()` after the transaction committed.
 */
export async function recordInTransaction(
  trail: AuditTrail,
  session: ClientSession,
  inputs: AuditInput[],
  actor: AuditActor = currentActor(),
): Promise<void> {
  if (!inputs.length) return;
  const docs = inputs.map((i) => trail.entryDoc(i, actor));
  try {
    await trail.models.Inbox.collection.insertMany(docs as never[], { session });
  } catch (err) {
    if (isWriteConflict(err)) throw err;
    throw Object.assign(auditUnavailable(), { cause: err });
  }
}

/**
 * One conditional update inside a transaction the caller runs, with the document read before and after it
 * (through `session`), for its audit entry. Null (nothing written) when the filter matched nothing.
 */
export async function updateReadingBoth(
  session: ClientSession,
  model: Model<any>,
  filter: Doc,
  update: Doc,
): Promise<{ before: Doc; after: Doc } | null> {
  const before = await model.findOne(filter, null, { session }).lean<Doc>().exec();
  if (!before) return null;
  const after = await model
    .findOneAndUpdate({ ...filter, _id: before._id }, update, { returnDocument: 'after', session })
    .lean<Doc>()
    .exec();
  return after ? { before, after } : null;
}

/**
 * AuditTrail.update inside a transaction the caller runs: the patient's conditional update and its entry. Null
 * (nothing written, nothing recorded) when the filter matched nothing.
 */
export async function updatePatientIn(
  trail: AuditTrail,
  session: ClientSession,
  model: Model<any>,
  filter: Doc,
  update: Doc,
): Promise<Doc | null> {
  const res = await updateReadingBoth(session, model, filter, update);
  if (!res) return null;
  await recordInTransaction(trail, session, [patientChangeInput(res.before, res.after)]);
  return res.after;
}
