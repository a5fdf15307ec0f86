import { auditTrailOf, can, conflict, newId, badRequest, type SessionUser } from '@onco/platform';
import { copyForm, dateWindows, formatDisplayDate, parseIsoDate, REQ_MSG } from '@onco/domain';
import { outboxForInsert } from '@onco/events';
import { nextSequence, type RequisitionDoc } from '../models';
import { todayOf, formOf, formatRequisitionNumber, storedBillings, type RequisitionDeps } from './context';
import { getRequisition, requisitionActionsFor } from './shared';
import { createRequisition } from './edit';
import { REQUISITION_CHANGE } from './audit';
import { allocateTestOrders, submittedEvent } from './submit';

/** Copy: a new draft of the same blocks, without identifiers, approvals, tests and attachments. */
export async function copyRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
): Promise<RequisitionDoc> {
  const doc = await getRequisition(deps, user, id);
  if (!requisitionActionsFor(deps, user, doc).copy) {
    throw conflict('Only a submitted requisition that is not deleted can be copied.');
  }
  const form = copyForm(formOf(doc));
  return createRequisition(deps, user, {
    ...form,
    parentTestOrderForm: {
      id: doc._id,
      testRequisitionId: doc.testRequisitionId,
      limsProjectIds: doc.limsProjectIds ?? [],
    },
  } as any);
}

/**
 * The one-click subsequent order: a submitted order of the configured test, built from this one, with its
 * tests ordered at once and the spec's comment. Returns the new requisition.
 */
export async function subsequentOrder(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  opts: { collectionDate?: string | null; collectionMode?: string | null },
): Promise<RequisitionDoc> {
  const source = await getRequisition(deps, user, id);
  if (!requisitionActionsFor(deps, user, source).subsequentOrder) {
    throw conflict('A subsequent order cannot be created from this requisition.');
  }
  if (opts.collectionDate) {
    // the dialog's window (3 months back to 3 months ahead) is the domain's, shared with the console
    const window = dateWindows(todayOf()).subsequentOrderCollection;
    const d = parseIsoDate(opts.collectionDate);
    if (!d) throw badRequest(REQ_MSG.invalidDate, { field: 'collectionDate' });
    if (d < window.min) throw badRequest(REQ_MSG.noEarlierThan(formatDisplayDate(window.min)));
    if (d > window.max) throw badRequest(REQ_MSG.noLaterThan(formatDisplayDate(window.max)));
  }
  const now = new Date();
  const orderInformation = {
    nextDx: false,
    nextPersonalDx: true,
    orderType: 'SUBSEQUENT_ORDER' as const,
  };
  const testOrders = await allocateTestOrders(deps, orderInformation);
  const newIdValue = newId();
  const testRequisitionId = formatRequisitionNumber(
    await nextSequence(deps.ctx.mongo, 'testRequisitionId', newIdValue),
  );
  const base = copyForm(formOf(source)) as any;
  const doc = {
    ...base,
    _id: newIdValue,
    billings: storedBillings(base.billings ?? [], [], user.id, now),
    status: 'SUBMITTED',
    testRequisitionId,
    orderInformation,
    testOrders,
    normalSpecimen: {
      specimenType: 'BLOOD',
      collectionMode: opts.collectionMode ?? null,
      collectionDate: opts.collectionDate ?? null,
      isPreSurgicalOrPreBiopsySample: null,
    },
    parentTestOrderForm: {
      id: source._id,
      testRequisitionId: source.testRequisitionId,
      limsProjectIds: source.limsProjectIds ?? [],
    },
    comment: REQ_MSG.subsequentOrderComment,
    clinicalReviewStatus: null,
    createdBy: user.id,
    updatedBy: user.id,
    createdOn: now,
    updatedOn: now,
  } as RequisitionDoc;
  const event = submittedEvent(doc, user, now, can(user, 'CAN_CREATE_TRF_PDF'));
  // the order, its submitted event and its audit entry (`create`, the fields set) in one transaction
  const created = await auditTrailOf(deps.ctx).create(
    deps.models.Requisition,
    { ...doc, outbox: outboxForInsert(event) },
    REQUISITION_CHANGE,
  );
  deps.ctx.nudgeOutbox();
  return created as RequisitionDoc;
}
