import { actorOf, auditTrailOf, can, conflict, newId, unprocessable, type SessionUser } from '@onco/platform';
import {
  normalizeForSave,
  plannedTestOrders,
  submitProblems,
  type BlockName,
  type FieldErrors,
  type RequisitionForm,
  requisitionBillingSummary,
} from '@onco/domain';
import { createEvent, withOutbox } from '@onco/events';
import { nextSequence, type RequisitionDoc } from '../models';
import {
  MSG_STALE,
  ICD10,
  ruleContext,
  formOf,
  icd10Codes,
  formatRequisitionNumber,
  formatTestOrderId,
  partyNames,
  type RequisitionDeps,
} from './context';
import {
  getRequisition,
  conditional,
  checkOwnership,
  editable,
  checkFormat,
  approvalsAfter,
  queueTrfNow,
} from './shared';
import { createRequisition } from './edit';
import { REQUISITION_CHANGE } from './audit';
import { trfJobOfSubmission } from '../workers/trf-jobs';

export function submissionProblems(form: RequisitionForm, user: SessionUser) {
  const problems = { ...submitProblems(form, ruleContext(user)) } as Partial<Record<BlockName, FieldErrors>>;
  // the event contract and the data scope need the three parties, whatever the optionality flags say
  const add = (block: BlockName, field: string) => {
    problems[block] = { ...(problems[block] ?? {}), [field]: 'This field is required' };
  };
  if (!form.patient?.id && !form.patient?.lastName) add('patient', 'patient.lastName');
  if (!form.physician?.id) add('provider', 'physician.id');
  if (!form.account?.id) add('account', 'account.id');
  const bad = icd10Codes(form as any).filter((c) => !ICD10.test(c));
  if (bad.length)
    problems.icd10 = {
      ...(problems.icd10 ?? {}),
      'tumorSpecimen.icd10Codes': `Invalid ICD-10 code ${bad[0]}`,
    };
  return problems;
}

/** A 422 naming each block's problems when the requisition cannot be submitted as it is. */
function refuseWithProblems(form: RequisitionForm, user: SessionUser): void {
  const problems = submissionProblems(form, user);
  if (Object.keys(problems).length) {
    throw unprocessable(
      `The requisition cannot be submitted yet: complete ${Object.keys(problems).join(', ')}.`,
      {
        blocks: problems,
      },
    );
  }
}

/** The ordered tests with their numbers; `taken`: numbers allocated by an earlier attempt, used first. */
export async function allocateTestOrders(
  deps: RequisitionDeps,
  info: RequisitionForm['orderInformation'],
  taken: number[] = [],
) {
  const planned = plannedTestOrders(info ?? {});
  const out = [];
  for (const [i, t] of planned.entries()) {
    const seq = (taken[i] ??= await nextSequence(deps.ctx.mongo, 'testOrderId'));
    out.push({
      id: newId(),
      testOrderId: formatTestOrderId(t.testType, seq),
      testType: t.testType,
      orderType: t.orderType,
      status: 'TEST_ORDERED' as const,
    });
  }
  return out;
}

export function submittedEvent(doc: RequisitionDoc, user: SessionUser, now: Date, createPdf: boolean) {
  return createEvent(
    'requisition-submitted',
    {
      data: {
        requisitionId: doc._id,
        testRequisitionId: doc.testRequisitionId!,
        accountId: doc.account!.id!,
        physicianId: doc.physician!.id!,
        patientId: doc.patient!.id!,
        ...partyNames(doc),
        submittedBy: actorOf(user),
        submittedOn: now.toISOString(),
        createPdf,
        testOrders: doc.testOrders.map((t) => ({
          id: t.id,
          testOrderId: t.testOrderId!,
          testType: t.testType,
          orderType: t.orderType,
          status: t.status,
        })),
        clinicalReviewStatus: doc.clinicalReviewStatus ?? null,
        icd10Codes: icd10Codes(doc),
        diagnosis: doc.tumorSpecimen?.diagnosis ?? null,
        // schemaVersion 4: what the billing service checks a claim with (no patient demographics)
        billing: requisitionBillingSummary(doc as never),
      },
    },
    {},
  );
}

/**
 * Submit (POST /submit?createPdf): the body's blocks are saved and the whole requisition checked; an
 * incomplete or unsigned requisition is refused with its problems per block and nothing changes. On success
 * the requisition gets its number and its ordered tests, and its requisition-submitted event is committed in
 * the same write, conditional on the draft at the version that was checked. Numbers are allocated once per
 * request and reused when the write is tried again (see `conditional`), so only a submit that finally loses
 * (another submit of the same draft won, or a concurrent change made it invalid) leaves unused numbers.
 */
export async function submitRequisition(
  deps: RequisitionDeps,
  user: SessionUser,
  input: RequisitionForm & { id?: string; version?: number },
  createPdfAsked: boolean,
): Promise<RequisitionDoc> {
  // without an id the requisition is created first: it is checked before anything is stored, so a refused submit
  // leaves no draft behind (a new requisition has no signature yet; fuzzing found the stray drafts)
  if (!input.id) {
    checkOwnership(user, input);
    const draft = { ...editable(normalizeForSave(input), null, user, new Date()) } as RequisitionForm;
    draft.approvals = [];
    checkFormat(draft, user);
    refuseWithProblems(draft, user);
  }
  const id = input.id ?? (await createRequisition(deps, user, input))._id;
  const numbers: { requisition: number | null; tests: number[] } = { requisition: null, tests: [] };
  return conditional(typeof input.version === 'number', async () => {
    const doc = await getRequisition(deps, user, id);
    if (doc.status !== 'DRAFT') throw conflict('This requisition has already been submitted.');
    if (typeof input.version === 'number' && input.version !== doc.version) throw conflict(MSG_STALE);
    checkOwnership(user, input);
    const now = new Date();
    const set = editable(normalizeForSave({ ...formOf(doc), ...input }), doc, user, now);
    const merged = { ...formOf(doc), ...set } as RequisitionForm;
    // the signature covers what is submitted: a body that changes signed content needs a new signature
    merged.approvals = approvalsAfter(deps, doc, merged) as RequisitionForm['approvals'];
    checkFormat(merged, user);
    refuseWithProblems(merged, user);
    if (merged.patient && !merged.patient.id) {
      if (!deps.registerPatient) {
        throw unprocessable('The requisition cannot be submitted yet: choose the patient.', {
          blocks: { patient: { 'patient.id': 'This field is required' } },
        });
      }
      const registered = await deps.registerPatient(merged.patient as any, {
        accountId: merged.account?.id ?? null,
        physicianId: merged.physician?.id ?? null,
        userId: user.id,
        requisitionId: id,
      });
      set.patient = {
        ...merged.patient,
        id: registered.id,
        userId: registered.userId ?? merged.patient.userId ?? null,
      };
    }
    numbers.requisition ??= await nextSequence(deps.ctx.mongo, 'testRequisitionId', id);
    const testRequisitionId = formatRequisitionNumber(numbers.requisition);
    const testOrders = await allocateTestOrders(deps, merged.orderInformation, numbers.tests);
    const review =
      merged.tumorSpecimen?.reviewDiagnosis && testOrders.some((t) => t.testType === 'NEXT_DX')
        ? 'NEEDS_REVIEW'
        : (doc.clinicalReviewStatus ?? null);
    const next = {
      ...doc,
      ...set,
      testRequisitionId,
      testOrders,
      clinicalReviewStatus: review,
      status: 'SUBMITTED',
    } as RequisitionDoc;
    const createPdf = createPdfAsked && can(user, 'CAN_CREATE_TRF_PDF');
    const event = submittedEvent(next, user, now, createPdf);
    // the submission, its event (the outbox) and its audit entry (the same transaction: docs/audit.md)
    const res = await auditTrailOf(deps.ctx).update(
      deps.models.Requisition,
      { _id: id, version: doc.version, status: 'DRAFT', deleted: { $ne: true } },
      withOutbox(
        {
          $set: {
            ...set,
            testRequisitionId,
            testOrders,
            clinicalReviewStatus: review,
            status: 'SUBMITTED',
            updatedOn: now,
            updatedBy: user.id,
          },
          $inc: { version: 1 },
        },
        event,
      ),
      REQUISITION_CHANGE,
      // the draft as read and checked above: the filter is conditional on its version
      { before: doc as RequisitionDoc & Record<string, unknown> },
    );
    // nothing matched: read it again (already submitted by another request: the 409 above)
    if (res) {
      deps.ctx.nudgeOutbox();
      queueTrfNow(deps, trfJobOfSubmission(event));
    }
    return res;
  });
}
