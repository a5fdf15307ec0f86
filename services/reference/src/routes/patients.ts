import type { FastifyInstance } from 'fastify';
import { PATIENT_CHANGE } from '../use-cases/audit';
import type { RouteDeps } from './shared';
import { scopedResourceRoutes } from './scoped-resource';
import { registerPatientListRoutes } from './patients/list';
import { registerPatientRenumberRoute } from './patients/renumber';
import {
  editedPatient,
  PATIENT_EDITORS,
  PATIENT_READERS,
  patientEditBody,
  patientReply,
  patientScope,
  presentPatient,
} from './patients/resource';

export {
  mergedPatientError,
  NOT_MERGED,
  PATIENT_EDITORS,
  PATIENT_READERS,
  patientEditBody,
  patientReply,
  patientScope,
  patientsResource,
  presentPatient,
} from './patients/resource';

/** Patient pick and patients list (spec 1 section 7; spec 2 section 7). Mounted in the portal area. */
export async function patientRoutes(app: FastifyInstance, deps: RouteDeps) {
  registerPatientListRoutes(app, deps);
  registerPatientRenumberRoute(app, deps);
  // by id: a merged duplicate still answers (its canEdit false); its edit is a 400
  scopedResourceRoutes(app, {
    path: '/patients',
    model: deps.models.Patient,
    scope: patientScope,
    reply: patientReply,
    readers: PATIENT_READERS,
    present: presentPatient,
    audit: {
      record: 'patient',
      subject: (p: { id: string; accountIds?: string[] }) => ({
        id: p.id,
        patientId: p.id,
        accountIds: p.accountIds,
      }),
    },
    // each edit (one or a bulk's rows) commits with its audit entry: who, the patient, the fields changed
    changes: PATIENT_CHANGE,
    edit: {
      permission: PATIENT_EDITORS,
      summary:
        'Edit a patient (names, date of birth not in the future, birth sex, address with zip and city patterns, phone 10 digits)',
      body: patientEditBody,
      change: (b, current) => editedPatient(b, current),
    },
  });
}
