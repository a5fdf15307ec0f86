import type { ClinicalReviewStatus, TestStatus } from '../enums';
import { REQ_MSG } from './messages';
import type { RequisitionForm } from './schema';
import { ICD10_MAX_CODES, icd10List } from './validate';
import type { StepKey } from './wizard';

/**
 * Spec 1 section 4: submitting with reviewDiagnosis on the tumor specimen and a tumor-informed (NEXT_DX) test
 * order sets clinicalReviewStatus to NEEDS_REVIEW; otherwise the status is left as it is.
 */
export function clinicalReviewStatusOnSubmit(
  form: Pick<RequisitionForm, 'tumorSpecimen' | 'orderInformation' | 'clinicalReviewStatus'>,
): ClinicalReviewStatus | null {
  if (form.tumorSpecimen?.reviewDiagnosis && form.orderInformation?.nextDx) return 'NEEDS_REVIEW';
  return form.clinicalReviewStatus ?? null;
}

/** Spec 1 section 4: saving with clinicalReviewStatus DISQUALIFIED removes the due dates of all its test orders. */
export function removesDueDates(form: Pick<RequisitionForm, 'clinicalReviewStatus'>): boolean {
  return form.clinicalReviewStatus === 'DISQUALIFIED';
}

/** A one-click repeat (subsequent) order: its test order status and comment (spec 1 section 4). */
export const SUBSEQUENT_ORDER_DEFAULTS: { testStatus: TestStatus; comment: string } = {
  testStatus: 'TEST_ORDERED',
  comment: REQ_MSG.subsequentOrderComment,
};

/** Typed search in the provider, patient, pathologist, payor and ICD-10 pickers applies at 3 or more characters. */
export function searchTermApplies(q: string | null | undefined): boolean {
  return (q ?? '').trim().length >= 3;
}

/** ICD-10 picker: add is disabled at 6 selected codes. */
export function canAddIcd10Code(selected: readonly string[] | string | null | undefined): boolean {
  const n = typeof selected === 'string' || selected == null ? icd10List(selected) : selected;
  return n.length < ICD10_MAX_CODES;
}

/**
 * Summary sections' Edit links (spec 1 section 2): shown only while the requisition is a draft; the Specimen
 * link also for users with CAN_REVIEW_DIAGNOSIS; the Attachments link always. Returns the wizard step to jump to,
 * keyed by summary section.
 */
export function summaryEditLinks(
  status: RequisitionForm['status'],
  permissions: readonly string[],
): Record<
  | 'testSelection'
  | 'patient'
  | 'provider'
  | 'pathologist'
  | 'specimen'
  | 'attachments'
  | 'additionalProvider',
  StepKey | null
> {
  const draft = status === 'DRAFT' || status == null;
  const when = (ok: boolean, step: StepKey) => (ok ? step : null);
  return {
    testSelection: when(draft, 'patient'),
    patient: when(draft, 'patient'),
    provider: when(draft, 'provider'),
    pathologist: when(draft, 'pathology'),
    specimen: when(draft || permissions.includes('CAN_REVIEW_DIAGNOSIS'), 'specimen'),
    attachments: 'attachments',
    additionalProvider: when(draft, 'additionalProvider'),
  };
}
