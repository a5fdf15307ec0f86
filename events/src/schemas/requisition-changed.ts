/** The `requisition-changed` family: a submitted requisition changed (schemaVersions 1 to 7). */
import { z } from 'zod';
import { FINANCIAL_ASSISTANCE_OUTCOMES } from '@onco/domain';
import { Actor, BillingReviewStatus, ClinicalReviewStatus, Icd10Code, RequisitionStatus } from './common';
import { id, instant } from './fields';
import { RequisitionBilling, RequisitionBillingV5 } from './requisition-submitted';

/**
 * What a requisition-changed event reports (one or more per event, in this order):
 * - `deleted`: the requisition was soft-deleted (its test orders are deleted with it)
 * - `clinical-review-changed`: its clinical review status changed (DISQUALIFIED removes the due dates of its
 *   test orders)
 * - `invalidated`: it became INVALID (merged into another requisition)
 * - `parties-changed`: an edit changed its account, physician, location or patient (ids or names)
 * - `billing-review-changed`: its billing review status changed (schemaVersion 3)
 * - `billing-changed`: an edit changed its billing entries, the patient's address completeness or its ICD-10
 *   codes (schemaVersion 4)
 * - `patient-changed`: a patient merge (or its undo) moved it to another patient (schemaVersion 5; see
 *   `patientMerge`)
 * - `form-edited`: an edit changed what the form says (its signed content); `changedFields` names each field
 *   (schemaVersion 6). A new TRF PDF version is made from it.
 * - `financial-assistance-changed`: billing staff recorded (or cleared) the financial assistance outcome
 *   (schemaVersion 7, `financialAssistanceOutcome`)
 */
export const REQUISITION_CHANGES = [
  'deleted',
  'clinical-review-changed',
  'invalidated',
  'parties-changed',
  'billing-review-changed',
  'billing-changed',
  'patient-changed',
  'form-edited',
  'financial-assistance-changed',
] as const;
export const RequisitionChange = z.enum(REQUISITION_CHANGES);
export type RequisitionChange = z.infer<typeof RequisitionChange>;

export const RequisitionChangedDataV1 = z
  .object({
    requisitionId: id('Requisition (test order form) entity id; also the event subject'),
    testRequisitionId: id('Human-readable TRF number'),
    requisitionVersion: z
      .number()
      .int()
      .min(0)
      .describe(
        'Version of the requisition after this change; grows with every change. Apply an event only when it is newer than the last one applied.',
      ),
    changes: z
      .array(RequisitionChange)
      .min(1)
      .describe('What changed in this write (the state fields below are the state AFTER the change)'),
    status: RequisitionStatus.describe('Requisition status after the change: SUBMITTED or INVALID'),
    deleted: z.boolean().describe('Whether the requisition is (soft) deleted after the change'),
    clinicalReviewStatus: ClinicalReviewStatus.nullable().describe(
      'Clinical review status after the change, null if none',
    ),
    previousClinicalReviewStatus: ClinicalReviewStatus.nullable().describe(
      'Clinical review status before the change, null if none',
    ),
    accountId: id('Ordering account id (after the change)'),
    physicianId: id('Ordering physician id (after the change)'),
    patientId: id('Patient id (after the change)'),
    accountName: z.string().max(300).nullable().describe('Ordering account name, null when unknown'),
    physicianName: z
      .string()
      .max(300)
      .nullable()
      .describe('Ordering physician display name, null when unknown'),
    hospitalLocationId: z.string().max(200).nullable().describe('Hospital location id, null when none'),
    hospitalLocationName: z.string().max(300).nullable().describe('Hospital location name, null when none'),
    patientName: z
      .string()
      .max(300)
      .nullable()
      .describe('Patient display name "First Last" as on the requisition, null when unknown'),
    patientNumber: z.string().max(300).nullable().describe('Patient number (PAT #), null when none'),
    testOrders: z
      .array(
        z.object({
          id: id('Test order entity id'),
          testOrderId: id('Human-readable test id'),
        }),
      )
      .describe('The test orders of the requisition (ids only; their statuses travel on test-status)'),
    changedBy: Actor,
    changedOn: instant('When the change was committed'),
  })
  .describe('A submitted requisition was deleted, invalidated, re-reviewed or had its parties edited');

/**
 * schemaVersion 2 (additive): `mergedInto` names the primary requisition when this one was merged into it
 * (change `invalidated` by a TRF merge), so consumers can follow the duplicate to its primary.
 */
export const RequisitionChangedDataV2 = RequisitionChangedDataV1.extend({
  mergedInto: z
    .object({
      id: id('Primary requisition entity id'),
      testRequisitionId: id('Primary requisition TRF number'),
    })
    .nullable()
    .optional()
    .describe(
      'The requisition this one was merged into (a TRF merge), null otherwise (schemaVersion 2; absent in 1)',
    ),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed or had its parties edited',
);

/**
 * schemaVersion 3 (additive): the change `billing-review-changed` and the requisition's billing review status
 * after the change, which the billing service needs to qualify its cases. Optional: absent in 1 and 2 (a
 * consumer keeps what it knew), null when the requisition has no billing review.
 */
export const RequisitionChangedDataV3 = RequisitionChangedDataV2.extend({
  billingReviewStatus: BillingReviewStatus.nullable()
    .optional()
    .describe('Billing review status after the change (schemaVersion 3; absent in 1 and 2, null when none)'),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing) or had its parties edited',
);

/**
 * schemaVersion 4 (additive): the change `billing-changed` (an edit changed the billing entries, the patient's
 * address completeness or the ICD-10 codes), with the billing summary and the ICD-10 codes after the change.
 */
export const RequisitionChangedDataV4 = RequisitionChangedDataV3.extend({
  billing: RequisitionBilling.nullable()
    .optional()
    .describe('Billing summary after the change (schemaVersion 4; absent before)'),
  icd10Codes: z
    .array(Icd10Code)
    .optional()
    .describe(
      'Distinct ICD-10 codes of the tumor specimen after the change (schemaVersion 4; absent before)',
    ),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing) or had its parties or billing edited',
);

/** Which way a patient merge moves a requisition: to the primary patient, or back by its undo. */
export const PATIENT_MERGE_DIRECTIONS = ['merge', 'undo'] as const;
export const PatientMergeDirection = z.enum(PATIENT_MERGE_DIRECTIONS);
export type PatientMergeDirection = z.infer<typeof PatientMergeDirection>;

/**
 * schemaVersion 5 (additive): the change `patient-changed` (a patient merge or its undo moved the requisition to
 * another patient; `patientId`, `patientName` and `patientNumber` are the new patient's) and `patientMerge`, which
 * names the merge, where the requisition came from and how many requisitions that run moves (a progress bar).
 */
export const RequisitionChangedDataV5 = RequisitionChangedDataV4.extend({
  patientMerge: z
    .object({
      mergeId: id('The patient merge (the patient event `mergeId`)'),
      direction: PatientMergeDirection.describe(
        "'merge': moved from a duplicate to the primary patient; 'undo': moved back by the merge's undo",
      ),
      fromPatientId: id('The patient the requisition belonged to before this change'),
      total: z
        .number()
        .int()
        .min(0)
        .describe('Submitted requisitions this run of the merge (or undo) moves, this one included'),
    })
    .nullable()
    .optional()
    .describe(
      'Set with the change `patient-changed`: the merge that moved the requisition (schemaVersion 5; absent before, null otherwise)',
    ),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing), had its parties or billing edited, or was moved to another patient by a patient merge',
);

/**
 * schemaVersion 6 (additive): the change `form-edited` (an edit of the submitted form changed what it says) and
 * `changedFields`, the dotted paths of the fields it changed (e.g. `tumorSpecimen.stage`, `billings.0.policyNumber`).
 */
export const RequisitionChangedDataV6 = RequisitionChangedDataV5.extend({
  changedFields: z
    .array(z.string())
    .optional()
    .describe(
      'Set with the change `form-edited`: the dotted paths of the form fields the edit changed (schemaVersion 6; absent before)',
    ),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing), edited (its form, parties or billing), or was moved to another patient by a patient merge',
);

/** The financial assistance outcomes (spec 3), @onco/domain's. */
export const FinancialAssistanceOutcome = z.enum(FINANCIAL_ASSISTANCE_OUTCOMES);

/**
 * schemaVersion 7 (additive): the change `financial-assistance-changed` and `financialAssistanceOutcome`, the
 * outcome after the change, which every event of schemaVersion 7 carries (null when none is recorded).
 */
export const RequisitionChangedDataV7 = RequisitionChangedDataV6.extend({
  financialAssistanceOutcome: FinancialAssistanceOutcome.nullable()
    .optional()
    .describe(
      'Financial assistance outcome after the change (schemaVersion 7; absent before, null when none)',
    ),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing), edited (its form, parties or billing), had its financial assistance outcome recorded, or was moved to another patient by a patient merge',
);

/** schemaVersion 8 (additive): the billing summary with what Medicare needs and the form lacks (as requisition-submitted v5). */
export const RequisitionChangedDataV8 = RequisitionChangedDataV7.extend({
  billing: RequisitionBillingV5.nullable()
    .optional()
    .describe('Billing summary after the change (schemaVersion 4; medicareDataMissing from schemaVersion 8)'),
}).describe(
  'A submitted requisition was deleted, invalidated (merged), re-reviewed (clinical or billing), edited (its form, parties or billing), had its financial assistance outcome recorded, or was moved to another patient by a patient merge',
);
export type RequisitionChangedData = z.infer<typeof RequisitionChangedDataV8>;
