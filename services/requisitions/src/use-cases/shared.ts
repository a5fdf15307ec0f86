/**
 * What several use cases do: read a requisition in the user's scope, write conditionally (conditionalWrite),
 * check ownership and format, the actions the rules allow, and the requisition-changed event of a write.
 */
import {
  actorOf,
  auditTrailOf,
  can,
  conditionalWrite,
  forbidden,
  notFound,
  badRequest,
  type SessionUser,
} from '@onco/platform';
import {
  approvalsAfterSave,
  signedBlocksChanged,
  signedFieldsChanged,
  SIGNED_BLOCKS,
  FORM_BLOCKS,
  requisitionActions,
  type RequisitionForm,
  type BillingReviewStatus,
  requisitionBillingSummary,
  refusedClinicalFields,
  msgClinicalFieldPermission,
} from '@onco/domain';
import { createEvent, withOutbox, type RequisitionChange, type RequisitionChangedData } from '@onco/events';
import type { RequisitionDoc } from '../models';
import { requisitionByIdFilter } from '../resource';
import { trfJobOfEdit, type TrfJobData } from '../workers/trf-jobs';
import { REQUISITION_CHANGE } from './audit';
import {
  MSG_NOT_FOUND,
  MSG_STALE,
  msgReviewPermission,
  ruleContext,
  formOf,
  formatProblems,
  icd10Codes,
  partiesOf,
  sameParties,
  sameBilling,
  storedBillings,
  type RequisitionDeps,
} from './context';

/** A requisition the user may see (404 otherwise, so another account's ids reveal nothing). */
export async function getRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  opts: { includeDeleted?: boolean } = {},
): Promise<RequisitionDoc> {
  const includeDeleted = Boolean(opts.includeDeleted && can(user, 'CAN_DELETE_TRF'));
  const doc = await deps.models.Requisition.findOne(requisitionByIdFilter(user, id, { includeDeleted }))
    .lean<RequisitionDoc>()
    .exec();
  if (!doc) throw notFound(MSG_NOT_FOUND);
  return doc;
}

/**
 * A read-check-write attempt whose write is conditional on what it read (platform's conditionalWrite): null
 * when the requisition changed since it was read. `strict` (the client sent the version it had read): a 409 at
 * once; otherwise read and checked again.
 */
export function conditional<T>(strict: boolean, attempt: () => Promise<T | null>): Promise<T> {
  return conditionalWrite(attempt, { strict, message: MSG_STALE });
}

/** The account and physician a user puts on a requisition must be theirs (lab staff: any). */
export function checkOwnership(user: SessionUser, form: Partial<RequisitionForm>) {
  if (user.allAccounts) return;
  const accountId = (form.account as any)?.id ?? null;
  const physicianId = (form.physician as any)?.id ?? null;
  const accountOk = !accountId || user.accountIds.includes(accountId);
  const physicianOk = !physicianId || user.physicianIds.includes(physicianId);
  // the requisition must stay visible to its author: an account of theirs, or a physician of theirs
  if (accountId && !accountOk && !(physicianId && physicianOk)) {
    throw forbidden('You can only order for your own accounts.');
  }
  if (physicianId && !physicianOk && !(accountId && accountOk)) {
    throw forbidden('You can only order for your own physicians.');
  }
}

export function editable(
  form: Partial<RequisitionForm>,
  existing: RequisitionDoc | null,
  user: SessionUser,
  now: Date,
) {
  const set: Record<string, unknown> = {};
  for (const key of FORM_BLOCKS) {
    if (key in form && (form as any)[key] !== undefined) set[key] = (form as any)[key];
  }
  if ('billings' in set) set.billings = storedBillings(set.billings, existing?.billings ?? [], user.id, now);
  // the clinical review status is the reviewers' (CAN_REVIEW_DIAGNOSIS): a save that would change it without
  // the permission is refused, one that repeats the current value is not a change
  const review = form.clinicalReviewStatus;
  if (review !== undefined && (review ?? null) !== (existing?.clinicalReviewStatus ?? null)) {
    if (!can(user, 'CAN_REVIEW_DIAGNOSIS'))
      throw forbidden(msgReviewPermission('CAN_REVIEW_DIAGNOSIS', 'clinical review'));
    set.clinicalReviewStatus = review;
  }
  // the clinical fields some users may not set (CAN_ADD_*, CAN_REVIEW_DIAGNOSIS): a change is refused
  const refused = refusedClinicalFields(
    set,
    existing as Record<string, unknown> | null,
    user.grantedAuthorities,
  );
  if (refused.length)
    throw forbidden(msgClinicalFieldPermission(refused[0]), {
      fields: Object.fromEntries(refused.map((f) => [f.path, msgClinicalFieldPermission(f)])),
    });
  return set;
}

export function checkFormat(form: RequisitionForm, user: SessionUser) {
  const problems = formatProblems(form, ruleContext(user));
  if (Object.keys(problems).length) {
    const [field, message] = Object.entries(problems)[0];
    throw badRequest(`${message} (${field})`, { fields: problems });
  }
}

export function requisitionActionsFor(
  deps: RequisitionDeps,
  user: SessionUser,
  doc: RequisitionDoc,
  editing = false,
) {
  const first = doc.testOrders[0];
  return requisitionActions(
    {
      status: doc.status,
      deleted: doc.deleted,
      editing,
      hasTrfAttachment: doc.attachments.some((a) => a.type === 'TRF'),
      testStatuses: doc.testOrders.map((t) => t.status),
      anySampleOnHold: doc.sampleStatuses.includes('ON_HOLD'),
      testType: first?.testType,
      orderType: first?.orderType,
      patientNumber: doc.patient?.userId ?? null,
      accountId: doc.account?.id ?? null,
    } as any,
    {
      ...ruleContext(user),
      financialAssistanceAccountId: deps.ctx.config.FINANCIAL_ASSISTANCE_ACCOUNT || null,
      subsequentOrder: {
        testType: deps.ctx.config.SUBSEQUENT_ORDER_TEST_TYPE,
        orderType: deps.ctx.config.SUBSEQUENT_ORDER_ORDER_TYPE,
        excludedAccountId: deps.ctx.config.SUBSEQUENT_ORDER_EXCLUDED_ACCOUNT || null,
      },
    } as any,
  );
}

/**
 * The requisition-changed event of a write from `before` to `after` (the state after, version before + 1), or
 * null when there is nothing to tell: a draft was never published (downstream does not know it), and a write
 * that changes none of `changes` is not an event. Requisition events carry the state after the change, so a
 * consumer applies the newest version it has seen. (Public for the patient-merge consumer,
 * consumers/patient-merges.ts, which moves requisitions to another patient with this same event.)
 */
export function requisitionChangedEvent(
  before: RequisitionDoc,
  after: RequisitionDoc,
  changes: RequisitionChange[],
  user: SessionUser,
  now: Date,
) {
  if (before.status === 'DRAFT' || !before.testRequisitionId || !changes.length) return null;
  const parties = partiesOf(after);
  if (!parties.accountId || !parties.physicianId || !parties.patientId) return null;
  return createEvent('requisition-changed', {
    data: {
      requisitionId: before._id,
      testRequisitionId: before.testRequisitionId,
      requisitionVersion: (before.version ?? 0) + 1,
      changes,
      status: after.status,
      deleted: Boolean(after.deleted),
      clinicalReviewStatus: after.clinicalReviewStatus ?? null,
      previousClinicalReviewStatus: before.clinicalReviewStatus ?? null,
      ...parties,
      accountId: parties.accountId,
      physicianId: parties.physicianId,
      patientId: parties.patientId,
      testOrders: after.testOrders
        .filter((t) => t.testOrderId)
        .map((t) => ({ id: t.id, testOrderId: t.testOrderId! })),
      changedBy: actorOf(user),
      changedOn: now.toISOString(),
      mergedInto: after.mergedInto?.id
        ? {
            id: after.mergedInto.id,
            testRequisitionId: after.mergedInto.testRequisitionId ?? after.mergedInto.id,
          }
        : null,
      // schemaVersion 3: the billing review the billing service qualifies its cases with
      billingReviewStatus: (after.billingReview?.status ?? null) as BillingReviewStatus | null,
      // schemaVersion 4: the billing summary and ICD-10 codes the billing service checks a claim with
      billing: requisitionBillingSummary(after as never),
      icd10Codes: icd10Codes(after),
      // schemaVersion 7: the financial assistance outcome
      financialAssistanceOutcome: (after.financialAssistance?.outcome ??
        null) as RequisitionChangedData['financialAssistanceOutcome'],
      // schemaVersion 6: which fields an edit of the form changed
      ...(changes.includes('form-edited')
        ? { changedFields: signedFieldsChanged(before as never, after as never) }
        : {}),
    },
  });
}

/** What a save of a submitted requisition changes that downstream must know (clinical review, parties). */
export function editChanges(before: RequisitionDoc, after: RequisitionDoc): RequisitionChange[] {
  const changes: RequisitionChange[] = [];
  if ((before.clinicalReviewStatus ?? null) !== (after.clinicalReviewStatus ?? null))
    changes.push('clinical-review-changed');
  if (!sameParties(before, after)) changes.push('parties-changed');
  if ((before.billingReview?.status ?? null) !== (after.billingReview?.status ?? null))
    changes.push('billing-review-changed');
  if (!sameBilling(before, after)) changes.push('billing-changed');
  if ((before.financialAssistance?.outcome ?? null) !== (after.financialAssistance?.outcome ?? null))
    changes.push('financial-assistance-changed');
  // what the form says: a new TRF version is made from this change (schemaVersion 6, with changedFields)
  if (signedBlocksChanged(before as never, after as never).length) changes.push('form-edited');
  return changes;
}

/**
 * The approvals a draft keeps after a save or a submit body: all of them when nothing the signature covers
 * changed, none otherwise (the domain's rule; values are compared after the model's casting, so '40' typed
 * for a stored 40 or a field the model does not keep is no change).
 */
export function approvalsAfter(
  deps: RequisitionDeps,
  doc: RequisitionDoc,
  merged: RequisitionForm,
): RequisitionDoc['approvals'] {
  if (!doc.approvals?.length) return doc.approvals ?? [];
  const cast = (form: Record<string, unknown>) => {
    const picked: Record<string, unknown> = {};
    for (const k of SIGNED_BLOCKS) picked[k] = form[k];
    return new deps.models.Requisition(picked).toObject() as unknown as Record<string, unknown>;
  };
  return approvalsAfterSave(doc.approvals, cast(formOf(doc) as any), cast(merged as any));
}

/**
 * One conditional write of a requisition with its requisition-changed event when it has one (in the same update:
 * the outbox) and its audit entry (in the same transaction: docs/audit.md), the relay nudged so the event leaves
 * at once. Null when the filter matched nothing (it changed).
 */
export async function writeRequisition(
  deps: RequisitionDeps,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
  event: ReturnType<typeof requisitionChangedEvent>,
): Promise<RequisitionDoc | null> {
  const res = await auditTrailOf(deps.ctx).update(
    deps.models.Requisition,
    filter,
    event ? withOutbox(update, event) : update,
    REQUISITION_CHANGE,
  );
  if (res && event) {
    deps.ctx.nudgeOutbox();
    // an Edit that changed the form: its new TRF version queued now, beside its event's consumer
    queueTrfNow(deps, trfJobOfEdit(event));
  }
  return res;
}

/**
 * A committed change's TRF PDF job (a submission, an Edit's new version), queued now rather than when its event
 * comes back from Kafka: the PDF is made while Kafka is away, and sooner otherwise. Not awaited and never failing
 * the request: the event (committed with the change) queues the same job under the same id, so a job this add
 * misses (Redis away, a crash right after the commit) is still queued, and a job added twice runs once
 * (docs/decisions.md "The TRF job, queued twice").
 */
export function queueTrfNow(deps: RequisitionDeps, job: TrfJobData | null): void {
  if (!job || !deps.queueTrf) return;
  deps
    .queueTrf(job)
    .catch((err: unknown) =>
      deps.ctx.logger.debug(
        { err: (err as Error).message, requisitionId: job.requisitionId },
        'TRF PDF job not queued with its change: its event will queue it',
      ),
    );
}
