/**
 * What staff record on a submitted requisition besides its form: the billing review, the clinical review and the
 * financial assistance outcome.
 */
import { actorOf, can, conflict, forbidden, type SessionUser } from '@onco/platform';
import {
  BILLING_REVIEW_MSG,
  FINANCIAL_ASSISTANCE_MSG,
  financialAssistanceApplies,
  type FinancialAssistanceOutcome,
  billingReviewBlockers,
  billingReviewBlockerText,
  type BillingReviewBlocker,
  type BillingReviewStatus,
  type ClinicalReviewStatus,
  type Permission,
} from '@onco/domain';
import type { RequisitionDoc } from '../models';
import { formOf, msgReviewPermission, todayOf, type RequisitionDeps } from './context';
import {
  conditional,
  editChanges,
  getRequisition,
  requisitionChangedEvent,
  writeRequisition,
} from './shared';

/**
 * Set one review status of a submitted, non-deleted requisition: one write conditional on the version read,
 * with its requisition-changed event in the outbox. Setting the status it already has changes nothing.
 */
async function setReview(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  review: {
    permission: Permission;
    what: string;
    current: (doc: RequisitionDoc) => string | null;
    set: Record<string, unknown>;
    /** why this change is refused on this requisition (empty: it is not) */
    refuse?: (doc: RequisitionDoc) => BillingReviewBlocker[];
    /** a refusal (409) whatever the value: the change does not apply to this requisition */
    applies?: (doc: RequisitionDoc) => string | null;
    /** the message without the permission (default: the review's) */
    forbidden?: string;
  },
): Promise<RequisitionDoc> {
  if (!can(user, review.permission))
    throw forbidden(review.forbidden ?? msgReviewPermission(review.permission, review.what));
  return conditional(false, async () => {
    const doc = await getRequisition(deps, user, id);
    if (doc.status === 'DRAFT' || doc.deleted)
      throw conflict(`Only a submitted requisition has a ${review.what}.`);
    const notApplicable = review.applies?.(doc);
    if (notApplicable) throw conflict(notApplicable);
    const after = { ...doc, ...review.set } as RequisitionDoc;
    if (review.current(doc) === review.current(after)) return doc;
    const blockers = review.refuse?.(doc) ?? [];
    if (blockers.length) {
      const reasons = blockers.map(billingReviewBlockerText);
      throw conflict(BILLING_REVIEW_MSG.refused(reasons), { reasons, blockers });
    }
    const now = new Date();
    const update = { $set: { ...review.set, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } };
    const event = requisitionChangedEvent(doc, after, editChanges(doc, after), user, now);
    return writeRequisition(deps, { _id: id, version: doc.version, deleted: { $ne: true } }, update, event);
  });
}

/**
 * Set the billing review status of a submitted requisition (CAN_EDIT_BILLING): its requisition-changed event
 * (`billing-review-changed`) is what the billing service qualifies its cases with. REVIEW_COMPLETE is refused
 * (409, with the reasons) while the Medicare warning shows or the primary billing is incomplete.
 */
export function setBillingReview(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  status: BillingReviewStatus | null,
): Promise<RequisitionDoc> {
  return setReview(deps, user, id, {
    permission: 'CAN_EDIT_BILLING',
    what: 'billing review',
    current: (doc) => doc.billingReview?.status ?? null,
    set: { billingReview: { status } },
    refuse: (doc) =>
      status === 'REVIEW_COMPLETE' ? billingReviewBlockers(formOf(doc), todayOf(new Date())) : [],
  });
}

/**
 * Set the clinical review status of a submitted requisition (CAN_REVIEW_DIAGNOSIS; spec 1 section 4, spec 2
 * section 6). Its requisition-changed event (`clinical-review-changed`, with the status before and after) is a
 * timeline entry; the lab's consumer follows it onto the tests and, for DISQUALIFIED, removes their due dates
 * (each removal a test history entry and test-status event).
 */
export function setClinicalReview(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  status: ClinicalReviewStatus | null,
): Promise<RequisitionDoc> {
  return setReview(deps, user, id, {
    permission: 'CAN_REVIEW_DIAGNOSIS',
    what: 'clinical review',
    current: (doc) => doc.clinicalReviewStatus ?? null,
    set: { clinicalReviewStatus: status },
  });
}

/**
 * Record the financial assistance outcome of a submitted order of the financial assistance account
 * (FINANCIAL_ASSISTANCE_ACCOUNT; CAN_EDIT_BILLING; spec 3 "Financial assistance outcomes"), with who and when. Its
 * requisition-changed event (`financial-assistance-changed`, schemaVersion 7) is a timeline entry. An order of
 * another account is a 409; null clears the outcome.
 */
export function setFinancialAssistance(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  outcome: FinancialAssistanceOutcome | null,
): Promise<RequisitionDoc> {
  return setReview(deps, user, id, {
    permission: 'CAN_EDIT_BILLING',
    what: 'financial assistance outcome',
    forbidden: FINANCIAL_ASSISTANCE_MSG.permission,
    current: (doc) => doc.financialAssistance?.outcome ?? null,
    set: {
      financialAssistance: outcome
        ? { outcome, decidedOn: new Date(), decidedBy: { id: user.id, name: actorOf(user).name } }
        : null,
    },
    applies: (doc) =>
      financialAssistanceApplies(doc.account?.id, deps.ctx.config.FINANCIAL_ASSISTANCE_ACCOUNT)
        ? null
        : FINANCIAL_ASSISTANCE_MSG.notApplicable,
  });
}
