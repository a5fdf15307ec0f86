import type { SessionUser } from '@onco/platform';
import { nextSequence } from '../models';
import type { PatientForm } from '../rules';
import { PATIENT_CHANGE, referenceTrail } from './audit';
import type { ReferenceDeps } from './deps';
import { readablePatient } from './patient-picker';

/** A patient as the requisition wizard typed it (the requisition's `patient` block): the patient form's fields. */
export type RequisitionPatient = PatientForm;

/** Who ordered: the requisition being submitted, its account, physician and author. */
export interface RequisitionOwner {
  accountId: string | null;
  physicianId: string | null;
  userId: string;
  requisitionId: string;
}

/**
 * A new patient typed into the requisition wizard joins the patient directory when the requisition is submitted
 * (the module's public call for the requisitions module, `reference.patients.registerFromRequisition`). The id
 * derives from the requisition, so a retried submit registers nobody twice, and two submits at once register one
 * patient (the other meets the same _id). The owner (the requisition's author) stands in for the session user.
 * The patient and its audit entry (`create`, docs/audit.md) commit in one transaction.
 */
export async function registerFromRequisition(
  { models }: ReferenceDeps,
  owner: RequisitionOwner,
  patient: RequisitionPatient,
): Promise<{ id: string; userId: string | null }> {
  const id = `patient-of-${owner.requisitionId}`;
  const known = await models.Patient.findById(id, { userId: 1 }).lean().exec();
  if (known) return { id, userId: known.userId };
  const seq = await nextSequence(models, 'patient', 100);
  const userId = `PAT-${String(seq).padStart(6, '0')}`;
  const name = [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' ');
  const doc: Record<string, unknown> = {
    _id: id,
    userId,
    firstName: patient.firstName ?? null,
    middleName: patient.middleName ?? null,
    lastName: patient.lastName ?? null,
    name,
    race: patient.race ?? null,
    ethnicity: patient.ethnicity ?? null,
    address: patient.address ?? null,
    phone: patient.phone ?? null,
    fax: patient.fax ?? null,
    email: patient.email ?? null,
    mrn: patient.mrn ?? null,
    dateOfBirth: patient.dateOfBirth ?? null,
    birthSex: patient.birthSex ?? null,
    trialName: patient.trialName ?? null,
    studyPatientId: patient.studyPatientId ?? null,
    diagnosis: patient.diagnosis ?? null,
    accountIds: owner.accountId ? [owner.accountId] : [],
    physicianIds: owner.physicianId ? [owner.physicianId] : [],
    createdBy: owner.userId,
    updatedBy: owner.userId,
  };
  const created = await referenceTrail(models.Patient.db)
    .create(models.Patient, doc, PATIENT_CHANGE)
    .catch(async (err) => {
      // two submits of one requisition at once: the other registered the patient first (same _id)
      if (err?.code !== 11000) throw err;
      const other = await models.Patient.findById(id, { userId: 1 }).lean().exec();
      if (!other) throw err;
      return other;
    });
  return { id, userId: created.userId };
}

/** The module's public `patients` API (registerFromRequisition, readable), bound to the module's deps. */
export function patientRegistry(deps: ReferenceDeps) {
  return {
    registerFromRequisition: (patient: RequisitionPatient, owner: RequisitionOwner) =>
      registerFromRequisition(deps, owner, patient),
    /** a patient the user may read, or null (other services check a patient a user names: messages) */
    readable: (user: SessionUser, id: string) => readablePatient(deps, user, id),
  };
}
export type PatientRegistry = ReturnType<typeof patientRegistry>;
