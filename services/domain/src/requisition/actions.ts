import type { OrderType, RequisitionStatus, TestStatus, TestType } from '../enums';
import type { RuleContext } from './validate';
import { financialAssistanceApplies } from './financial-assistance';
import { isDulPatientNumber } from '../patients/index';

/** Test statuses that count as complete for the Edit action (decision: every report-complete status). */
export const COMPLETE_TEST_STATUSES: readonly TestStatus[] = [
  'REPORT_COMPLETE',
  'TNP_REPORT_COMPLETE',
  'REPORT_AMENDED',
];

export interface RequisitionActionState {
  status: RequisitionStatus;
  deleted: boolean;
  /** the summary is in edit mode */
  editing?: boolean;
  /** a TRF attachment (the generated PDF) exists */
  hasTrfAttachment: boolean;
  testStatuses: readonly TestStatus[];
  anySampleOnHold: boolean;
  /** the test the Subsequent Order button is about (the requisition's test order) */
  testType?: TestType | null;
  orderType?: OrderType | null;
  /** the patient number (PAT #) */
  patientNumber?: string | null;
  /** the requisition's account id */
  accountId?: string | null;
}

export interface SubsequentOrderConfig {
  /** the one test type and order type that offers the one-click subsequent order */
  testType: TestType;
  orderType: OrderType;
  /** the one account excluded from it */
  excludedAccountId: string | null;
}

export interface RequisitionActions {
  print: boolean;
  copy: boolean;
  edit: boolean;
  delete: boolean;
  subsequentOrder: boolean;
  /** the order is of the financial assistance account: its attachment kind and outcome row show */
  financialAssistance: boolean;
  /** the financial assistance outcome may be recorded: such an order, submitted, by CAN_EDIT_BILLING */
  recordFinancialAssistance: boolean;
}

/**
 * Spec 1 section 4 "Actions on a summary":
 * - Print: a non-draft order with a TRF attachment.
 * - Copy: a non-draft, non-deleted order not being edited.
 * - Edit: CAN_EDIT_TRF, a non-deleted non-draft order, and at least one test neither complete nor cancelled.
 * - Delete: CAN_DELETE_TRF, a non-deleted order, no tests or all cancelled, no sample on hold. A draft can
 *   always be deleted (decision: by anyone who may delete or create requisitions — CAN_DELETE_TRF or
 *   CAN_CREATE_TRF — as long as it is not already deleted; providers lack CAN_DELETE_TRF).
 * - Subsequent order: the configured test and order type, SUBMITTED, not deleted, the patient number without
 *   'DUL', the account not the excluded one; decision: also needs CAN_CREATE_TRF (it creates an order).
 */
/** Who may delete a draft (any time): who may create or delete requisitions (providers lack CAN_DELETE_TRF). */
export function canDeleteDraft(permissions: readonly string[]): boolean {
  return permissions.includes('CAN_DELETE_TRF') || permissions.includes('CAN_CREATE_TRF');
}

/**
 * A clinical reviewer without the Edit action edits the specimens of a non-draft, undeleted order (spec 1
 * section 4: the Specimen link shows for CAN_REVIEW_DIAGNOSIS); the server saves nothing else from them.
 */
export function reviewerEditsSpecimens(
  state: { status: string; deleted?: boolean | null },
  permissions: readonly string[],
  canEdit: boolean,
): boolean {
  return (
    !canEdit && permissions.includes('CAN_REVIEW_DIAGNOSIS') && state.status !== 'DRAFT' && !state.deleted
  );
}

export function requisitionActions(
  state: RequisitionActionState,
  ctx: RuleContext & { subsequentOrder: SubsequentOrderConfig },
): RequisitionActions {
  const can = (p: string) => ctx.permissions.includes(p);
  const draft = state.status === 'DRAFT';
  const tests = state.testStatuses;
  const cfg = ctx.subsequentOrder;
  const fa = financialAssistanceApplies(state.accountId, ctx.financialAssistanceAccountId);
  return {
    print: !draft && state.hasTrfAttachment,
    copy: !draft && !state.deleted && !state.editing,
    edit:
      can('CAN_EDIT_TRF') &&
      !state.deleted &&
      !draft &&
      tests.some((s) => s !== 'CANCELLED' && !COMPLETE_TEST_STATUSES.includes(s)),
    delete:
      !state.deleted &&
      (draft
        ? canDeleteDraft(ctx.permissions)
        : can('CAN_DELETE_TRF') && tests.every((s) => s === 'CANCELLED') && !state.anySampleOnHold),
    subsequentOrder:
      can('CAN_CREATE_TRF') &&
      state.testType === cfg.testType &&
      state.orderType === cfg.orderType &&
      state.status === 'SUBMITTED' &&
      !state.deleted &&
      !isDulPatientNumber(state.patientNumber) &&
      !(cfg.excludedAccountId != null && state.accountId === cfg.excludedAccountId),
    financialAssistance: fa,
    recordFinancialAssistance: fa && can('CAN_EDIT_BILLING') && !draft && !state.deleted,
  };
}

/**
 * Merge TRF (spec 2 sections 5 and 6): each form must be submitted, not deleted, and without a cancelled test.
 * The reason a form cannot take part in a merge, or null. The server checks both forms; the console offers
 * Merge TRF only on a form for which this is null.
 */
export function mergeTrfProblem(form: {
  status: RequisitionStatus;
  deleted?: boolean | null;
  testStatuses: readonly string[];
}): string | null {
  if (form.status !== 'SUBMITTED' || form.deleted) return 'Only submitted requisitions can be merged.';
  if (form.testStatuses.includes('CANCELLED')) return 'A requisition with a cancelled test cannot be merged.';
  return null;
}
