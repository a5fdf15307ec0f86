/** The `patient-requisitions` family: every requisition of a patient merge (or its undo) was moved. */
import { z } from 'zod';
import { id, instant } from './fields';
import { PatientMergeDirection } from './requisition-changed';

export const PatientRequisitionsDataV1 = z
  .object({
    mergeId: id('The patient merge; also the event subject'),
    direction: PatientMergeDirection.describe("'merge' (to the primary patient) or 'undo' (back)"),
    targetId: id('The primary patient of the merge'),
    sourceIds: z.array(id('A duplicate patient id')).min(1).max(50).describe('The duplicate patients'),
    total: z
      .number()
      .int()
      .min(0)
      .describe('Submitted requisitions moved, each announced by its requisition-changed (patient-changed)'),
    drafts: z.number().int().min(0).describe('Draft requisitions moved too (drafts publish no events)'),
    completedOn: instant('When the last requisition was moved'),
  })
  .describe('The requisitions service has moved every requisition of a patient merge (or of its undo)');
export type PatientRequisitionsData = z.infer<typeof PatientRequisitionsDataV1>;
