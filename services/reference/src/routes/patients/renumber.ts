import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  MSG_PATIENT_NUMBER_INVALID,
  MSG_PATIENT_NUMBER_SAME,
  msgPatientNumberInUse,
  patientNumberProblem,
} from '@onco/domain';
import { actorOf, badRequest, conflict, errorReplies, notFound, requireUser, typed } from '@onco/platform';
import type { RouteDeps } from '../shared';
import { mergedPatientError, patientReply, patientScope, presentPatient as present } from './resource';

/** One patient by number within the data scope, not deleted. */
function scopedByNumber(userId: string, scope: Record<string, unknown>): Record<string, unknown> {
  const parts: Record<string, unknown>[] = [{ userId }, { deleted: { $ne: true } }];
  if (Object.keys(scope).length) parts.push(scope);
  return { $and: parts };
}

/** Update Patient # (spec 2 section 6): PUT /patients/updatePatientId. */
export function registerPatientRenumberRoute(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);

  r.put(
    '/patients/updatePatientId',
    {
      config: { permission: 'CAN_UPDATE_PATIENTID' },
      schema: {
        tags: ['reference'],
        summary:
          'Update Patient #: renumber the patient whose number is fromId to toId (a UUID, versions 1-5); a number in use is a 409; audited on the patient (numberHistory)',
        querystring: z.object({
          fromId: z.string().min(1).max(100),
          toId: z.string().max(100),
          /** the patient version read; a stale one is a 409 */
          version: z.coerce.number().int().min(0).optional(),
        }),
        response: { 200: patientReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const fromId = req.query.fromId.trim();
      const toId = req.query.toId.trim().toLowerCase();
      const problem = patientNumberProblem(toId, fromId);
      if (problem === 'required' || problem === 'invalid')
        throw badRequest(MSG_PATIENT_NUMBER_INVALID, { field: 'toId' });
      if (problem === 'same') throw badRequest(MSG_PATIENT_NUMBER_SAME, { field: 'toId' });
      const scope = patientScope(user);
      const current = (await models.Patient.findOne(scopedByNumber(fromId, scope)).lean().exec()) as any;
      if (!current) throw notFound(`No patient with Patient # ${fromId}.`);
      if (current.mergedInto) throw mergedPatientError(current);
      if (req.query.version !== undefined && req.query.version !== current.version) throw conflict();
      // any patient holding the number (a deleted one too: numbers are never reused)
      if (await models.Patient.exists({ userId: toId }))
        throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
      const actor = actorOf(user);
      const now = new Date();
      const updated = await models.Patient.findOneAndUpdate(
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
        { returnDocument: 'after' },
      )
        .lean()
        .exec()
        .catch((err: unknown) => {
          // the unique index on userId: another renumbering took the number in between
          if ((err as { code?: unknown })?.code === 11000)
            throw conflict(msgPatientNumberInUse(toId), { field: 'toId' });
          throw err;
        });
      if (!updated) throw conflict();
      return present(updated as Record<string, any>, user);
    },
  );
}
