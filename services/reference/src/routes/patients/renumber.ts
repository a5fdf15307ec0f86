import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { errorReplies, requireUser, typed } from '@onco/platform';
import { renumberPatient } from '../../use-cases';
import type { RouteDeps } from '../shared';
import { patientReply, presentPatient as present } from './resource';

/** Update Patient # (spec 2 section 6): PUT /patients/updatePatientId (the use case renumberPatient). */
export function registerPatientRenumberRoute(app: FastifyInstance, deps: RouteDeps) {
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
      return present(await renumberPatient(deps, user, req.query), user);
    },
  );
}
