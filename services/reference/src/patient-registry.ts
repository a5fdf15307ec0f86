import { nextSequence, type ReferenceModels } from './models';
import type { PatientForm } from './rules';

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
 * The reference module's public call for the requisitions module: a new patient typed into the wizard joins the
 * patient directory when the requisition is submitted. The id derives from the requisition, so a retried submit
 * registers nobody twice, and two submits at once register one patient (the other meets the same _id).
 */
export function patientRegistry(models: ReferenceModels) {
  return {
    async registerFromRequisition(
      patient: RequisitionPatient,
      owner: RequisitionOwner,
    ): Promise<{ id: string; userId: string | null }> {
      const id = `patient-of-${owner.requisitionId}`;
      const known = await models.Patient.findById(id, { userId: 1 }).lean().exec();
      if (known) return { id, userId: known.userId };
      const seq = await nextSequence(models, 'patient', 100);
      const userId = `PAT-${String(seq).padStart(6, '0')}`;
      const name = [patient.firstName, patient.middleName, patient.lastName].filter(Boolean).join(' ');
      const created = await models.Patient.create({
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
      } as Record<string, unknown>).catch(async (err) => {
        // two submits of one requisition at once: the other registered the patient first (same _id)
        if (err?.code !== 11000) throw err;
        const other = await models.Patient.findById(id, { userId: 1 }).lean().exec();
        if (!other) throw err;
        return other;
      });
      return { id, userId: created.userId };
    },
  };
}
export type PatientRegistry = ReturnType<typeof patientRegistry>;
