import { PARTY_BLOCKS } from './lifecycle';
import type { RequisitionForm } from './schema';

/**
 * The top-level keys of a requisition form (RequisitionFormSchema's, in its order), as plain data: the console
 * builds its save bodies from them without loading zod (form-keys.test.ts keeps the two in step).
 */
export const REQUISITION_FORM_KEYS = [
  'status',
  'clinicalReviewStatus',
  'isNYState',
  ...PARTY_BLOCKS,
  'parentTestOrderForm',
  'tumorSpecimen',
  'normalSpecimen',
  'billings',
  'attachments',
  'approvals',
  'consent',
  'comment',
  'kitId',
] as const satisfies ReadonlyArray<keyof RequisitionForm>;
