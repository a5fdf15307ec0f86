import type { Connection, Model } from 'mongoose';
import { auditedSchema, declareOrderedIndex } from '@onco/platform';
import {
  BILLING_REVIEW_STATUSES,
  FINANCIAL_ASSISTANCE_OUTCOMES,
  CLINICAL_REVIEW_STATUSES,
  ORDER_TYPES,
  REQUISITION_STATUSES,
  SAMPLE_STATUSES,
} from '@onco/domain';
import { bool, outboxField, str, sub } from './common';
import {
  approvalSchema,
  attachmentRefSchema,
  billingSchema,
  locationSchema,
  normalSpecimenSchema,
  orderingProviderSchema,
  pathologistSchema,
  patientSchema,
  providerSchema,
  reportRefSchema,
  testOrderSummarySchema,
  tumorSpecimenSchema,
} from './requisition/blocks';
import type { RequisitionDoc } from './requisition/types';

export type * from './requisition/types';

/**
 * The requisition (test order form, TRF): spec 1 section 3 "Requisition" and spec 2 section 3
 * "Test order form". Collection `test_order_forms`. Blocks the wizard edits are embedded objects holding
 * the picked record's id plus the fields the form shows (a snapshot taken when the block is saved): their
 * sub-schemas are in requisition/blocks.ts, the document's TypeScript shapes in requisition/types.ts.
 */

export const requisitionSchema = auditedSchema(
  {
    /** human-readable number, allocated from `counters` on first submit; null on drafts */
    testRequisitionId: str,
    status: { type: String, enum: REQUISITION_STATUSES, default: 'DRAFT', required: true },
    clinicalReviewStatus: { type: String, enum: CLINICAL_REVIEW_STATUSES, default: null },
    isNYState: bool,
    patient: { type: patientSchema, default: null },
    physician: { type: orderingProviderSchema(), default: null },
    account: { type: sub({ id: str, accountId: str, name: str }), default: null },
    hospitalLocation: { type: locationSchema(), default: null },
    pathologist: { type: pathologistSchema, default: null },
    pathologistLocation: { type: locationSchema(), default: null },
    additionalPhysician: { type: providerSchema(), default: null },
    additionalPhysicianLocation: { type: locationSchema(), default: null },
    orderInformation: {
      type: sub({
        nextDx: { type: Boolean, default: false },
        nextPersonalDx: { type: Boolean, default: false },
        orderType: { type: String, enum: ORDER_TYPES, default: null },
      }),
      default: () => ({ nextDx: false, nextPersonalDx: false, orderType: null }),
    },
    /** summary of the lab's test orders (the lab service owns test_orders; this copy is kept by events) */
    testOrders: { type: [testOrderSummarySchema], default: [] },
    parentTestOrderForm: {
      type: sub({ id: str, testRequisitionId: str, limsProjectIds: { type: [String], default: [] } }),
      default: null,
    },
    limsProjectIds: { type: [String], default: [] },
    tumorSpecimen: { type: tumorSpecimenSchema, default: null },
    normalSpecimen: { type: normalSpecimenSchema, default: null },
    billings: { type: [billingSchema], default: [] },
    attachments: { type: [attachmentRefSchema], default: [] },
    approvals: { type: [approvalSchema], default: [] },
    /** the distinct statuses of the order's samples (kept by sample events); ON_HOLD blocks deletion */
    sampleStatuses: { type: [{ type: String, enum: SAMPLE_STATUSES }], default: [] },
    samples: {
      type: [
        sub({
          id: { type: String, required: true },
          type: str,
          status: { type: String, enum: [...SAMPLE_STATUSES, null], default: null },
          changedOn: { type: Date, default: null },
        }),
      ],
      default: [],
    },
    samplesVersion: { type: Number, default: 0 },
    /** the patient's consent was obtained (consent step) */
    consent: bool,
    billingReview: {
      type: sub({ status: { type: String, enum: BILLING_REVIEW_STATUSES, default: null } }),
      default: null,
    },
    /** the financial assistance outcome billing staff recorded (the financial assistance account's orders only) */
    financialAssistance: {
      type: sub({
        outcome: { type: String, enum: FINANCIAL_ASSISTANCE_OUTCOMES, default: null },
        decidedOn: { type: Date, default: null },
        decidedBy: { type: sub({ id: str, name: str }), default: null },
      }),
      default: null,
    },
    reports: { type: [reportRefSchema], default: [] },
    comment: str,
    mergedInto: { type: sub({ id: str, testRequisitionId: str }), default: null },
    kitId: str,
    trfTemplate: { type: sub({ id: str }), default: null },
    sfdcCaseId: str,
    outbox: outboxField(),
  },
  { collection: 'test_order_forms' },
);

/*
 * Indexes: each names the query it serves. The orders list (GET /testOrderForms, list-exec.ts) always asks for
 * a status tab (Draft: status DRAFT; Submitted: status in SUBMITTED, INVALID), not deleted, newest first
 * (updatedOn DESC, _id DESC), and, for users who do not see every account, within the data scope
 * `$or [account.id in, physician.id in, createdBy]` (resource.ts). A facet value the user picks adds its filter.
 * On MongoDB the compound keys give the page in index order (each `$or` branch merged by sort); DocumentDB 0.106
 * (the local store) searches every key of a compound index on its own and sorts the matched rows, so there they
 * narrow the rows the page, count and facets read. The search (`q`, an unanchored case-insensitive substring)
 * cannot use an index: it is applied to the rows of the tab.
 */
// orders list, both tabs, newest first, for users who see every account (lab and billing staff, admins);
// the home dashboard's clinical review counters (status SUBMITTED)
requisitionSchema.index({ status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `account.id in` branch (and the accountId / accountIds filters)
requisitionSchema.index({ 'account.id': 1, status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `physician.id in` branch (and the physicianId / physicianIds filters)
requisitionSchema.index({ 'physician.id': 1, status: 1, updatedOn: -1, _id: -1 });
// orders list within the data scope, its `createdBy` branch (a draft started on the patient step has no
// account yet); without it the scope's `$or` could not be answered from indexes at all
requisitionSchema.index({ createdBy: 1, status: 1, updatedOn: -1, _id: -1 });
// orders list: the patientId filter (a patient's requisitions)
requisitionSchema.index({ 'patient.id': 1 });
// the list's newest-first pages once the list is large (its counts kept): read in index order, on the local store
// through DocumentDB's extended RUM (built by the ordered-index login: @onco/platform ordered-indexes.ts)
declareOrderedIndex('test_order_forms', { updatedOn: -1, _id: -1 });
// orders list: the testRequisitionId filter (a TRF number). Not unique: drafts have none (null); the number is
// unique by construction (allocated from the `counters` sequence on first submit)
requisitionSchema.index({ testRequisitionId: 1 });
// orders list: a facet's value picked (its filter narrows the rows the page, count and other facets read)
requisitionSchema.index({ 'testOrders.status': 1 }); // testStatus (test_status_facet)
requisitionSchema.index({ clinicalReviewStatus: 1 }); // clinicalReviewStatus, reviewStatus (clinical_review_facet)
requisitionSchema.index({ 'billingReview.status': 1 }); // billingReviewStatus (billing_review_facet)
requisitionSchema.index({ 'physician.name': 1 }); // physicianName (physician_facet)
requisitionSchema.index({ 'account.name': 1 }); // accountName (account_facet)
requisitionSchema.index({ 'hospitalLocation.name': 1 }); // locationName (hospital_location_facet)
requisitionSchema.index({ 'tumorSpecimen.diagnosis': 1 }); // diagnosis (diagnosis_facet)
requisitionSchema.index({ 'testOrders.testType': 1 }); // testType (test_type_facet)
requisitionSchema.index({ sampleStatuses: 1 }); // sampleStatus (sample_status_facet)
requisitionSchema.index({ 'testOrders.orderType': 1 }); // orderType (order_type_facet)

export function requisitionModel(conn: Connection): Model<RequisitionDoc> {
  return (
    (conn.models.Requisition as Model<RequisitionDoc>) ??
    conn.model<RequisitionDoc>('Requisition', requisitionSchema)
  );
}
