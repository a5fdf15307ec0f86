/** Create, save (a draft save, or an Edit of a submitted requisition) and delete (the reviews: reviews.ts). */
import { auditTrailOf, can, conflict, forbidden, type SessionUser } from '@onco/platform';
import { canDeleteDraft, normalizeForSave, reviewerEditsSpecimens, type RequisitionForm } from '@onco/domain';
import type { RequisitionDoc } from '../models';
import {
  MSG_ALREADY_SUBMITTED,
  MSG_STALE,
  formOf,
  draftTestOrders,
  sameOrderInfo,
  type RequisitionDeps,
  reviewerInput,
  A_TEST_RUNNING,
  ALL_TESTS_CANCELLED,
} from './context';
import {
  getRequisition,
  conditional,
  checkOwnership,
  editable,
  checkFormat,
  requisitionActionsFor,
  requisitionChangedEvent,
  editChanges,
  approvalsAfter,
  writeRequisition,
} from './shared';
import { REQUISITION_CHANGE } from './audit';

export async function createRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  input: RequisitionForm,
): Promise<RequisitionDoc> {
  const now = new Date();
  checkOwnership(user, input);
  const set = editable(normalizeForSave(input), null, user, now);
  const merged = { ...set } as RequisitionForm;
  checkFormat(merged, user);
  // the draft and its audit entry (`create`, the fields set) in one transaction (docs/audit.md)
  return auditTrailOf(deps.ctx).create(
    deps.models.Requisition,
    {
      ...set,
      status: 'DRAFT',
      testOrders: draftTestOrders((set.orderInformation as any) ?? null),
      parentTestOrderForm: (input as any).parentTestOrderForm ?? null,
      createdBy: user.id,
      updatedBy: user.id,
      createdOn: now,
      updatedOn: now,
    },
    REQUISITION_CHANGE,
  );
}

/**
 * Save (PUT /{id}): a draft save carries status DRAFT and never changes a submitted requisition; a save of a
 * submitted requisition is an Edit (CAN_EDIT_TRF and the Edit rule); `deleted: true` is a delete.
 */
export async function saveRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
  input: RequisitionForm & { deleted?: boolean; version?: number },
): Promise<RequisitionDoc> {
  if (input.deleted === true) return removeRequisition(deps, user, id);
  return conditional(typeof input.version === 'number', async () => {
    const doc = await getRequisition(deps, user, id);
    if (typeof input.version === 'number' && input.version !== doc.version) throw conflict(MSG_STALE);
    const now = new Date();
    const asDraft = input.status === 'DRAFT';
    let body = input;
    // what the rule applied below relied on, beyond the version: part of the update's filter
    let guard: Record<string, unknown> = { status: doc.status };
    if (doc.status !== 'DRAFT') {
      if (asDraft) throw conflict(MSG_ALREADY_SUBMITTED);
      const actions = requisitionActionsFor(deps, user, doc);
      // a clinical reviewer without the Edit action (spec 2 section 8: CAN_REVIEW_DIAGNOSIS edits the specimen
      // of a non-draft form) saves the specimens and the review status, nothing else
      const reviewOnly = reviewerEditsSpecimens(doc, user.grantedAuthorities, actions.edit);
      if (!actions.edit && !reviewOnly) {
        throw forbidden(
          'This requisition cannot be edited: it needs CAN_EDIT_TRF and at least one test that is neither complete nor cancelled.',
        );
      }
      if (reviewOnly) body = reviewerInput(input);
      else guard = { ...guard, ...A_TEST_RUNNING };
    } else if (!can(user, 'CAN_CREATE_TRF') && !can(user, 'CAN_EDIT_TRF')) {
      throw forbidden();
    }
    checkOwnership(user, body);
    const set = editable(normalizeForSave({ ...formOf(doc), ...body }), doc, user, now);
    const merged = { ...formOf(doc), ...set } as RequisitionForm;
    checkFormat(merged, user);
    // a submitted requisition keeps its ordered tests; a draft's planned tests follow its order information
    if (doc.status === 'DRAFT' && !sameOrderInfo(doc.orderInformation, merged.orderInformation)) {
      set.testOrders = draftTestOrders(merged.orderInformation);
    }
    // a signed draft whose signed content changes loses its approvals: the user signs again
    if (doc.status === 'DRAFT' && doc.approvals?.length) {
      const approvals = approvalsAfter(deps, doc, merged);
      if (approvals.length !== doc.approvals.length) set.approvals = approvals;
    }
    const after = { ...doc, ...set } as RequisitionDoc;
    const event = requisitionChangedEvent(doc, after, editChanges(doc, after), user, now);
    const update = { $set: { ...set, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } };
    return writeRequisition(
      deps,
      { _id: id, version: doc.version, deleted: { $ne: true }, ...guard },
      update,
      event,
    );
  });
}

/** Soft delete: the requisition and its tests are marked deleted (the Delete rule of spec 1 section 4). */
export async function removeRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  id: string,
): Promise<RequisitionDoc> {
  return conditional(false, async () => {
    const doc = await getRequisition(deps, user, id);
    const draft = doc.status === 'DRAFT';
    const allowed = draft
      ? canDeleteDraft(user.grantedAuthorities)
      : requisitionActionsFor(deps, user, doc).delete;
    if (!allowed) {
      throw forbidden(
        'This requisition cannot be deleted: it needs CAN_DELETE_TRF, no test that is not cancelled and no sample on hold.',
      );
    }
    const now = new Date();
    const update = { $set: { deleted: true, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } };
    // a submitted requisition is known downstream (the lab holds its tests): tell them, in the same write
    const event = requisitionChangedEvent(doc, { ...doc, deleted: true }, ['deleted'], user, now);
    return writeRequisition(
      deps,
      {
        _id: id,
        version: doc.version,
        status: doc.status,
        deleted: { $ne: true },
        ...(draft ? {} : ALL_TESTS_CANCELLED),
      },
      update,
      event,
    );
  });
}
