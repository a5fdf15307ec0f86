/**
 * The enumerations and building blocks the event families share. The enumerations come from `@onco/domain`, the
 * product's pure vocabulary package (no I/O), so an event and the service that emits it can never disagree on a
 * value.
 */
import { z } from 'zod';
import {
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
import { id } from './fields';

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
