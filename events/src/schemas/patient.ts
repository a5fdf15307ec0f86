/** The `patient` family: duplicate patients were merged into a patient, or that merge was undone. */
import { z } from 'zod';
import { Actor } from './common';
import { id, instant } from './fields';

/** What a patient event reports: duplicates were merged into the patient, or that merge was undone. */
export const PATIENT_CHANGES = ['merged', 'merge-undone'] as const;
export const PatientChange = z.enum(PATIENT_CHANGES);
export type PatientChange = z.infer<typeof PatientChange>;

export const PatientDataV1 = z
  .object({
    patientId: id('The primary (target) patient of the merge; also the event subject'),
    change: PatientChange.describe(
      "'merged': the duplicates (sourceIds) were merged into this patient, their requisitions follow; 'merge-undone': the merge was undone, the requisitions go back",
    ),
    mergeId: id('The patient merge (GET /portal/api/v1/patients/merges/{mergeId})'),
    sourceIds: z
      .array(id('A duplicate patient id'))
      .min(1)
      .max(50)
      .describe('The duplicate patients merged into this one'),
    patientNumber: z
      .string()
      .max(300)
      .nullable()
      .describe("The primary patient's number (PAT #), null when none"),
    patientName: z.string().max(300).nullable().describe('The primary patient\'s display name "First Last"'),
    firstName: z.string().max(100).nullable().describe("The primary patient's first name"),
    middleName: z.string().max(100).nullable().describe("The primary patient's middle name, null when none"),
    lastName: z.string().max(100).nullable().describe("The primary patient's last name"),
    changedBy: Actor,
    changedOn: instant('When the merge (or its undo) was committed'),
  })
  .describe('Duplicate patients were merged into a patient, or that merge was undone');
export type PatientData = z.infer<typeof PatientDataV1>;
