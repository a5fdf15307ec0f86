/**
 * Versioned zod schemas of the `data` part of each event family.
 *
 * Rules (see docs/events.md, "Versioning"):
 * - Within a topic (`*.v1`), a new schemaVersion may only ADD optional/nullable fields or
 *   (consumers first) new enum values. Unknown fields are stripped by consumers, never rejected.
 * - A breaking change (removing/renaming/retyping a field) gets a new topic `*.v2`.
 *
 * The enumerations come from `@onco/domain`, the product's pure vocabulary package (no I/O), so an
 * event and the service that emits it can never disagree on a value.
 */
import { z } from 'zod';
import {
  ALL_ATTACHMENT_TYPES,
  BILLING_CASE_STATUSES,
  BILLING_REVIEW_STATUSES,
  CLINICAL_REVIEW_STATUSES,
  ORDER_TYPES,
  REQUISITION_STATUSES,
  SAMPLE_STATUSES,
  SPECIMEN_TYPES as SAMPLE_TYPES,
  TEST_STATUSES,
  TEST_TYPES,
} from '@onco/domain';

export {
  BILLING_CASE_STATUSES,
  BILLING_REVIEW_STATUSES,
  CLINICAL_REVIEW_STATUSES,
  ORDER_TYPES,
  REQUISITION_STATUSES,
  SAMPLE_STATUSES,
  SAMPLE_TYPES,
  TEST_STATUSES,
  TEST_TYPES,
};

// ---------------------------------------------------------------------------
// Enums (values exactly as in the product specification)
// ---------------------------------------------------------------------------

export const TestType = z.enum(TEST_TYPES);
export type TestType = z.infer<typeof TestType>;

export const OrderType = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof OrderType>;

export const TestStatus = z.enum(TEST_STATUSES);
export type TestStatus = z.infer<typeof TestStatus>;

export const ClinicalReviewStatus = z.enum(CLINICAL_REVIEW_STATUSES);
export type ClinicalReviewStatus = z.infer<typeof ClinicalReviewStatus>;

export const BillingReviewStatus = z.enum(BILLING_REVIEW_STATUSES);
export type BillingReviewStatus = z.infer<typeof BillingReviewStatus>;

export const RequisitionStatus = z.enum(REQUISITION_STATUSES);
export type RequisitionStatus = z.infer<typeof RequisitionStatus>;

export const SampleType = z.enum(SAMPLE_TYPES);
export type SampleType = z.infer<typeof SampleType>;

export const SampleStatus = z.enum(SAMPLE_STATUSES);
export type SampleStatus = z.infer<typeof SampleStatus>;

export const SAMPLE_CHANGES = ['created', 'updated', 'copied'] as const;
export const SampleChange = z.enum(SAMPLE_CHANGES);
export type SampleChange = z.infer<typeof SampleChange>;

export const BillingCaseStatus = z.enum(BILLING_CASE_STATUSES);
export type BillingCaseStatus = z.infer<typeof BillingCaseStatus>;

// ---------------------------------------------------------------------------
// Building blocks
// ---------------------------------------------------------------------------

const id = (description: string) => z.string().min(1).max(200).describe(description);
/** An instant, ISO 8601 with a time zone designator, e.g. 2025-03-01T14:05:00.000Z. */
const instant = (description: string) => z.iso.datetime({ offset: true }).describe(description);

export const Actor = z
  .object({
    id: id('User id of the person (or "system" for automated changes)'),
    name: z.string().max(300).describe('Display name at the time of the change'),
  })
  .describe('Who made the change');
export type Actor = z.infer<typeof Actor>;

/** An ICD-10-CM code such as C34.90 or C50911 (dot optional). */
export const Icd10Code = z
  .string()
  .regex(/^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/, 'not an ICD-10 code')
  .describe('ICD-10-CM code, e.g. C34.90');

// ---------------------------------------------------------------------------
// requisition-submitted
// ---------------------------------------------------------------------------

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
export type RequisitionSubmittedData = z.infer<typeof RequisitionSubmittedDataV4>;

// ---------------------------------------------------------------------------
// requisition-changed
// ---------------------------------------------------------------------------

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
 */
export const REQUISITION_CHANGES = [
  'deleted',
  'clinical-review-changed',
  'invalidated',
  'parties-changed',
  'billing-review-changed',
  'billing-changed',
  'patient-changed',
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
export type RequisitionChangedData = z.infer<typeof RequisitionChangedDataV5>;

// ---------------------------------------------------------------------------
// test-status
// ---------------------------------------------------------------------------

export const TestStatusDataV1 = z
  .object({
    testOrderId: id('Test order entity id; also the event subject'),
    testId: id('Human-readable test id shown to users'),
    requisitionId: id('Requisition entity id the test belongs to'),
    testRequisitionId: id('Human-readable TRF number'),
    accountId: id('Ordering account id'),
    testType: TestType.describe('Assay'),
    orderType: OrderType.describe('Initial or subsequent order'),
    previousStatus: TestStatus.nullable().describe(
      'Status before the change; null when the test order was created',
    ),
    status: TestStatus.describe('Status after the change'),
    changedBy: Actor,
    changedOn: instant('When the status changed'),
    dueOn: z.iso.date().nullable().describe('Due date (calendar date, YYYY-MM-DD), null when none'),
  })
  .describe('A test order was created or its status changed');

/** What a test-status event (schemaVersion 2) reports about its test order. */
export const TEST_CHANGES = ['created', 'status', 'report', 'due-date', 'lims-project', 'merged'] as const;
export const TestChange = z.enum(TEST_CHANGES);
export type TestChange = z.infer<typeof TestChange>;

/**
 * schemaVersion 2 (additive): every change of a test order travels on test-status, not only its status, so
 * `change` says which. `limsProjectId` and `report` carry the current values. A V1 reader still parses it
 * (the V1 fields are unchanged; a due date or LIMS change repeats the same `status` with `previousStatus`).
 */
export const TestStatusDataV2 = TestStatusDataV1.extend({
  change: TestChange.optional().describe(
    "What happened: 'created', 'status' (Update Status), 'report' (a report uploaded; status set by it), 'due-date', 'lims-project', 'merged' (moved to another requisition by a TRF merge)",
  ),
  limsProjectId: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe('LIMS project id of the test, null when none (schemaVersion 2; absent in 1)'),
  report: z
    .object({
      id: id(
        'Report file id (download with GET /oms/api/v1/testOrders/{testOrderId}/reports/download?version=N)',
      ),
      version: z.number().int().min(1).describe('Report version: 1 for the first report, +1 per amendment'),
      fileName: z.string().max(300).describe('Uploaded file name'),
      amended: z.boolean().describe('Whether this version amends an earlier report'),
    })
    .nullable()
    .optional()
    .describe('The latest report of the test, null when none (schemaVersion 2; absent in 1)'),
}).describe('A test order was created, or its status, report, due date or LIMS project changed');
export type TestStatusData = z.infer<typeof TestStatusDataV2>;

// ---------------------------------------------------------------------------
// sample
// ---------------------------------------------------------------------------

export const SampleDataV1 = z
  .object({
    sampleId: id('Sample entity id; also the event subject'),
    requisitionId: id('Requisition entity id the sample belongs to'),
    type: SampleType.describe('Specimen kind'),
    status: SampleStatus.nullable().describe('Lab status of the sample, null if not set'),
    limsId: z.string().max(200).nullable().describe('Identifier in the LIMS, null until known'),
    change: SampleChange.describe(
      "What happened: 'created', 'updated', or 'copied' (from another requisition)",
    ),
    changedBy: Actor,
    changedOn: instant('When the change happened'),
  })
  .describe('A sample was created, updated or copied');
export type SampleData = z.infer<typeof SampleDataV1>;

// ---------------------------------------------------------------------------
// billing-case
// ---------------------------------------------------------------------------

export const BillingCaseDataV1 = z
  .object({
    billingCaseId: id('Billing case entity id; also the event subject'),
    testOrderId: id('Test order entity id the case bills'),
    requisitionId: id('Requisition entity id'),
    caseStatus: BillingCaseStatus.describe('Case status after the change'),
    previousStatus: BillingCaseStatus.nullable().describe('Case status before the change; null when created'),
    billingCode: z.string().max(100).nullable().describe('Billing (CPT/PLA) code, null if not assigned'),
    errorDetails: z
      .string()
      .max(10_000)
      .nullable()
      .describe('Error text from XIFIN or the submission worker, null when none'),
    changedBy: Actor,
    changedOn: instant('When the change happened'),
  })
  .describe('A billing case was created or changed status');
export type BillingCaseData = z.infer<typeof BillingCaseDataV1>;

// ---------------------------------------------------------------------------
// attachment
// ---------------------------------------------------------------------------

/** What an attachment event reports: a user uploaded a file, or removed (soft-deleted) one. */
export const ATTACHMENT_CHANGES = ['uploaded', 'deleted'] as const;
export const AttachmentChange = z.enum(ATTACHMENT_CHANGES);
export type AttachmentChange = z.infer<typeof AttachmentChange>;

export const AttachmentDataV1 = z
  .object({
    attachmentId: id('Attachment entity id; also the event subject'),
    change: AttachmentChange.describe("What happened: 'uploaded' or 'deleted' (a soft delete)"),
    type: z.enum(ALL_ATTACHMENT_TYPES).describe('Attachment type, e.g. SAMPLE_MANIFEST'),
    name: z.string().max(300).describe('File name as uploaded'),
    contentType: z.string().max(200).describe('Content type the client declared'),
    size: z.number().int().min(0).describe('Size in bytes'),
    sha256: z.string().max(64).nullable().describe('SHA-256 of the content (hex), null when unknown'),
    blobId: z
      .string()
      .max(200)
      .nullable()
      .describe(
        "The file's key in the platform's file store (for services on that store); others download it with GET /portal/api/v1/attachments/{attachmentId}/download",
      ),
    accountId: z.string().max(200).nullable().describe('Account the file belongs to, null when none'),
    accountName: z.string().max(300).nullable().describe('Account name at upload, null when unknown'),
    requisitionId: z
      .string()
      .max(200)
      .nullable()
      .describe('Requisition the file is attached to, null for an Attachment Box upload'),
    uploadedBy: Actor.describe('Who uploaded the file'),
    uploaderScope: z
      .object({
        allAccounts: z.boolean().describe('The uploader sees every account (lab, billing, operations staff)'),
        accountIds: z.array(z.string().max(200)).max(10_000).describe("The uploader's accounts"),
        physicianIds: z.array(z.string().max(200)).max(10_000).describe("The uploader's physicians"),
        mayEditSamples: z.boolean().describe('The uploader holds VIEW_SAMPLE_ACTIONS (may change samples)'),
      })
      .describe(
        "The uploader's data scope and sample permission at upload time: what a manifest's rows may change",
      ),
    changedBy: Actor,
    changedOn: instant('When the change was committed'),
  })
  .describe('A file was uploaded as an attachment, or an attachment was removed');
export type AttachmentData = z.infer<typeof AttachmentDataV1>;

// ---------------------------------------------------------------------------
// sample-manifest
// ---------------------------------------------------------------------------

export const SAMPLE_MANIFEST_RESULTS = ['PROCESSED', 'ERROR'] as const;

export const SampleManifestDataV1 = z
  .object({
    attachmentId: id('The manifest attachment id; also the event subject'),
    status: z
      .enum(SAMPLE_MANIFEST_RESULTS)
      .describe('PROCESSED: every row applied; ERROR: nothing applied (see errorDetails)'),
    rows: z.number().int().min(0).describe('Sample rows read (blank rows not counted)'),
    created: z.number().int().min(0).describe('Samples created'),
    updated: z.number().int().min(0).describe('Samples updated'),
    errorCount: z.number().int().min(0).describe('Problems found (0 when PROCESSED)'),
    errorDetails: z
      .string()
      .max(200_000)
      .nullable()
      .describe('One line per problem, "Row N, Column: message" (the first 1,000); null when PROCESSED'),
    missingSamples: z
      .number()
      .int()
      .min(0)
      .describe(
        'Expected samples of the listed requisitions still missing after processing (reconciliation)',
      ),
    processedOn: instant('When the result was committed'),
  })
  .describe('A sample manifest was processed: applied whole (PROCESSED) or refused whole (ERROR)');
export type SampleManifestData = z.infer<typeof SampleManifestDataV1>;

// ---------------------------------------------------------------------------
// patient
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// patient-requisitions
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------

export const EVENT_FAMILIES = [
  'requisition-submitted',
  'requisition-changed',
  'test-status',
  'sample',
  'billing-case',
  'attachment',
  'sample-manifest',
  'patient',
  'patient-requisitions',
] as const;
export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** Data types per family (the latest schemaVersion). */
export interface EventDataMap {
  'requisition-submitted': RequisitionSubmittedData;
  'requisition-changed': RequisitionChangedData;
  'test-status': TestStatusData;
  sample: SampleData;
  'billing-case': BillingCaseData;
  attachment: AttachmentData;
  'sample-manifest': SampleManifestData;
  patient: PatientData;
  'patient-requisitions': PatientRequisitionsData;
}
export type EventData<F extends EventFamily> = EventDataMap[F];

/**
 * Data schemas per family, indexed by schemaVersion (1-based). The last entry is the
 * current version producers write; consumers parse with the newest version they know that
 * is <= the event's schemaVersion (so older events still parse, and newer, additive ones too).
 */
export const DATA_SCHEMAS = {
  'requisition-submitted': {
    1: RequisitionSubmittedDataV1,
    2: RequisitionSubmittedDataV2,
    3: RequisitionSubmittedDataV3,
    4: RequisitionSubmittedDataV4,
  },
  'requisition-changed': {
    1: RequisitionChangedDataV1,
    2: RequisitionChangedDataV2,
    3: RequisitionChangedDataV3,
    4: RequisitionChangedDataV4,
    5: RequisitionChangedDataV5,
  },
  'test-status': { 1: TestStatusDataV1, 2: TestStatusDataV2 },
  sample: { 1: SampleDataV1 },
  'billing-case': { 1: BillingCaseDataV1 },
  attachment: { 1: AttachmentDataV1 },
  'sample-manifest': { 1: SampleManifestDataV1 },
  patient: { 1: PatientDataV1 },
  'patient-requisitions': { 1: PatientRequisitionsDataV1 },
} as const satisfies Record<EventFamily, Record<number, z.ZodType>>;

export const CURRENT_SCHEMA_VERSION: Record<EventFamily, number> = {
  'requisition-submitted': 4,
  'requisition-changed': 5,
  'test-status': 2,
  sample: 1,
  'billing-case': 1,
  attachment: 1,
  'sample-manifest': 1,
  patient: 1,
  'patient-requisitions': 1,
};

/** The data schema to use for a family at a given schemaVersion (see DATA_SCHEMAS). */
export function dataSchemaFor<F extends EventFamily>(
  family: F,
  schemaVersion: number,
): z.ZodType<EventData<F>> {
  const versions = DATA_SCHEMAS[family] as Record<number, z.ZodType>;
  const known = Object.keys(versions)
    .map(Number)
    .sort((a, b) => a - b);
  let chosen = known[0];
  for (const v of known) if (v <= schemaVersion) chosen = v;
  return versions[chosen] as z.ZodType<EventData<F>>;
}

/** The field that holds the entity id (the event subject / partition key) per family. */
export const SUBJECT_FIELD = {
  'requisition-submitted': 'requisitionId',
  'requisition-changed': 'requisitionId',
  'test-status': 'testOrderId',
  sample: 'sampleId',
  'billing-case': 'billingCaseId',
  attachment: 'attachmentId',
  'sample-manifest': 'attachmentId',
  patient: 'patientId',
  'patient-requisitions': 'mergeId',
} as const satisfies { [F in EventFamily]: keyof EventDataMap[F] };
