/** The `requisition-submitted` family: a requisition was submitted (schemaVersions 1 to 4). */
import { z } from 'zod';
import { MEDICARE_DATA_FIELDS } from '@onco/domain';
import { Actor, ClinicalReviewStatus, Icd10Code, OrderType, TestStatus, TestType } from './common';
import { id, instant } from './fields';

export const RequisitionTestOrder = z.object({
  id: id('Test order entity id'),
  testOrderId: id('Human-readable test id shown to users (the "Test ID")'),
  testType: TestType.describe('Assay ordered'),
  orderType: OrderType.describe('Initial order or subsequent (monitoring) order'),
  status: TestStatus.describe('Status of the test order at submission time'),
});
export type RequisitionTestOrder = z.infer<typeof RequisitionTestOrder>;

export const RequisitionSubmittedDataV1 = z
  .object({
    requisitionId: id('Requisition (test order form) entity id; also the event subject'),
    testRequisitionId: id('Human-readable TRF number'),
    accountId: id('Ordering account (clinic/hospital) id'),
    physicianId: id('Ordering physician id'),
    patientId: id('Patient id (no other patient data is carried in events)'),
    submittedBy: Actor.describe('User who submitted the requisition'),
    submittedOn: instant('When the requisition was submitted'),
    createPdf: z.boolean().describe('Whether a TRF PDF must be rendered for this submission'),
    testOrders: z.array(RequisitionTestOrder).describe('Test orders on the requisition at submission'),
    clinicalReviewStatus: ClinicalReviewStatus.nullable().describe(
      'Clinical review status after submission (NEEDS_REVIEW when a review diagnosis was given), null if none',
    ),
    icd10Codes: z.array(Icd10Code).describe('Distinct ICD-10 codes of the tumor specimen, in entry order'),
  })
  .describe('A requisition was submitted (DRAFT -> SUBMITTED)');

/** A display name as shown in lists at the time of the event; null when the requisition has none. */
const displayName = (description: string) => z.string().max(300).nullable().optional().describe(description);

/**
 * The display names the lab's lists show (spec 2 section 2.4 "Tests list": patient, account, location,
 * physician), added in schemaVersion 2. Optional and nullable: events of schemaVersion 1 have none of them.
 */
export const RequisitionNames = {
  accountName: displayName('Ordering account name (schemaVersion 2; absent in 1, null when unknown)'),
  physicianName: displayName(
    'Ordering physician display name (schemaVersion 2; absent in 1, null when unknown)',
  ),
  hospitalLocationId: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe('Hospital location id (schemaVersion 2; absent in 1, null when none)'),
  hospitalLocationName: displayName('Hospital location name (schemaVersion 2; absent in 1, null when none)'),
  patientName: displayName(
    'Patient display name "First Last" as on the requisition (schemaVersion 2; absent in 1, null when unknown)',
  ),
  patientNumber: displayName(
    'Patient number (PAT #, the patient userId) (schemaVersion 2; absent in 1, null when none)',
  ),
};

/** schemaVersion 2: V1 plus the display names of the parties (additive, all optional). */
export const RequisitionSubmittedDataV2 = RequisitionSubmittedDataV1.extend(RequisitionNames).describe(
  'A requisition was submitted (DRAFT -> SUBMITTED)',
);

/**
 * schemaVersion 3 (additive): the tumor diagnosis, which the lab's sample rules need (a tumor sample of the
 * configured account may PROCEED only with a diagnosis and a completed clinical review).
 */
export const RequisitionSubmittedDataV3 = RequisitionSubmittedDataV2.extend({
  diagnosis: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe(
      'Tumor diagnosis code (e.g. BREAST, LUNG; OTHER with its text elsewhere), null when not given (schemaVersion 3; absent before)',
    ),
}).describe('A requisition was submitted (DRAFT -> SUBMITTED)');

/**
 * What the billing service needs to check and build a claim, without patient demographics (docs/events.md): the
 * primary billing entry's type and payor, and whether the patient's address is complete (Medicare claims need it).
 */
export const RequisitionBilling = z
  .object({
    billingType: z
      .enum(['INSURANCE', 'FACILITY', 'SELF', 'MEDICARE', 'MEDICAID', 'OTHER'])
      .nullable()
      .describe("The primary billing entry's type, null when the requisition has no billing entry"),
    payorId: z.string().max(200).nullable().describe("The primary billing entry's payor id, null when none"),
    payorName: z
      .string()
      .max(300)
      .nullable()
      .describe("The primary billing entry's insurance provider (payor) name, null when none"),
    patientAddressComplete: z
      .boolean()
      .describe(
        "Whether the patient's address has street, city, state and postal code (not the address itself)",
      ),
  })
  .describe('The billing summary of a requisition (schemaVersion 4)');
export type RequisitionBilling = z.infer<typeof RequisitionBilling>;

/** schemaVersion 4 (additive): the billing summary the billing service checks a claim with. */
export const RequisitionSubmittedDataV4 = RequisitionSubmittedDataV3.extend({
  billing: RequisitionBilling.nullable()
    .optional()
    .describe('Billing summary (schemaVersion 4; absent before)'),
}).describe('A requisition was submitted (DRAFT -> SUBMITTED)');

/**
 * schemaVersion 5 (additive, 2026-11-29): the billing summary says what Medicare needs of the tumor specimen and the
 * form lacks, for the billing service's pre-submit checks (spec 1 section 5).
 */
export const RequisitionBillingV5 = RequisitionBilling.extend({
  medicareDataMissing: z
    .array(z.enum(MEDICARE_DATA_FIELDS))
    .optional()
    .describe(
      'With a Medicare billing and a NEXT_PERSONAL_DX test: which of drugName, stage, icd10Codes the form lacks (empty when none or not Medicare; schemaVersion 5 of requisition-submitted and 8 of requisition-changed, absent before)',
    ),
}).describe('The billing summary of a requisition (schemaVersion 5)');

/** schemaVersion 5 (additive): the billing summary with what Medicare needs and the form lacks. */
export const RequisitionSubmittedDataV5 = RequisitionSubmittedDataV4.extend({
  billing: RequisitionBillingV5.nullable()
    .optional()
    .describe('Billing summary (schemaVersion 4; medicareDataMissing from schemaVersion 5)'),
}).describe('A requisition was submitted (DRAFT -> SUBMITTED)');
export type RequisitionSubmittedData = z.infer<typeof RequisitionSubmittedDataV5>;
