import {
  MSG_PATIENT_NUMBER_INVALID,
  MSG_PATIENT_NUMBER_SAME,
  msgPatientNumberInUse,
  patientNumberProblem,
} from '@onco/domain';
import { actorOf, badRequest, conflict, notFound, type SessionUser } from '@onco/platform';
import { mergedPatientError, patientScope } from '../routes/patients/resource';
import { PATIENT_CHANGE, referenceTrail } from './audit';
import type { ReferenceDeps } from './deps';

/** Update Patient #: the patient's number now (fromId), the new one (toId) and the patient version read. */
export interface RenumberPatientInput {
  fromId: string;
  toId: string;
  /** the patient version read; a stale one is a 409 */
  version?: number;
}

/** One patient by number within the data scope, not deleted. */
function scopedByNumber(userId: string, scope: Record<string, unknown>): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [{ userId }, { deleted: { $ne: true } }];
  if (Object.keys(scope).length) parts.push(scope);
  return { $and: parts };
}

/**
 * Update Patient # (spec 2 section 6): the patient whose number is fromId, in the user's scope, takes toId (a
 * UUID, versions 1-5; a number in use, a deleted patient's too, is a 409), audited on the patient (numberHistory).
 * One update conditional on the version read, committed with its audit entry (userId, numberHistory); returns the
 * patient as stored after it.
 */
export async function renumberPatient(
  { models }: ReferenceDeps,
  user: SessionUser,
  input: RenumberPatientInput,
): Promise<Record<string, any>> {
  const fromId = input.fromId.trim();
  const toId = input.toId.trim().toLowerCase();
  const problem = patientNumberProblem(toId, fromId);
  if (problem === 'required' || problem === 'invalid')
    throw badRequest(MSG_PATIENT_NUMBER_INVALID, { field: 'toId' });
  if (problem === 'same') throw badRequest(MSG_PATIENT_NUMBER_SAME, { field: 'toId' });
  const scope = patientScope(user);
  const current = (await models.Patient.findOne(scopedByNumber(fromId, scope)).lean().exec()) as any;
  if (!current) throw notFound(`No patient with Patient # ${fromId}.`);
  if (current.mergedInto) throw mergedPatientError(current);
  if (input.version !== undefined && input.version !== current.version) throw conflict();
  // any patient holding the number (a deleted one too: numbers are never reused)
  if (await models.Patient.exists({ userId: toId }))
    throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
  const actor = actorOf(user);
  const now = new Date();
  const updated = await referenceTrail(models.Patient.db)
    .update(
      models.Patient,
      {
        _id: current._id,
        userId: fromId,
        version: current.version,
        deleted: { $ne: true },
        mergedInto: null,
      },
      {
        $set: { userId: toId, updatedOn: now, updatedBy: user.id },
        $push: {
          numberHistory: {
            fromId,
            toId,
            changedBy: actor.id,
            changedByName: actor.name,
            changedOn: now,
          },
        },
        $inc: { version: 1 },
      },
      PATIENT_CHANGE,
    )
    .catch((err: unknown) => {
      // the unique index on userId: another renumbering took the number in between
      if ((err as { code?: unknown })?.code === 11000)
        throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
      throw err;
    });
  if (!updated) throw conflict();
  return updated as Record<string, any>;
}
