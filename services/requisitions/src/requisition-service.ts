import type { Model } from 'mongoose';
import {
  actorOf,
  can,
  conditionalWrite,
  conflict,
  forbidden,
  newId,
  notFound,
  toApi,
  unprocessable,
  badRequest,
  type Config,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import {
  approvalsAfterSave,
  COMPLETE_TEST_STATUSES,
  copyForm,
  dateWindows,
  displayNameOf,
  SIGNED_BLOCKS,
  FORM_BLOCKS,
  formatDisplayDate,
  icd10List,
  parseIsoDate,
  REQ_MSG,
  normalizeForSave,
  mergeTrfProblem,
  plannedTestOrders,
  requisitionActions,
  submitProblems,
  requisitionIssues,
  type BlockName,
  type FieldErrors,
  type RequisitionForm,
  type RuleContext,
  type BillingReviewStatus,
  requisitionBillingSummary,
} from '@onco/domain';
import { createEvent, outboxForInsert, withOutbox, type RequisitionChange } from '@onco/events';
import { nextSequence, type RequisitionDoc, type RequisitionModels } from './models';
import { requisitionByIdFilter } from './resource';

/** Checks a user's own login password (counts toward the account's lockout); wired by the server. */
export type SignatureVerifier = (userId: string, password: string) => Promise<boolean>;

export const MSG_INCORRECT_PASSWORD = 'Incorrect password. Try again.';
export const MSG_NOT_FOUND = 'Requisition not found';
export const MSG_ALREADY_SUBMITTED =
  'This requisition has already been submitted; a draft save cannot change it. Reload it to see its current state.';
export const MSG_STALE =
  'This requisition was changed by someone else since you opened it. Reload it and make your change again.';

const ICD10 = /^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/;

export const todayOf = (now: Date = new Date()) => now.toISOString().slice(0, 10);

export function ruleContext(user: SessionUser, now = new Date()): RuleContext {
  return { today: todayOf(now), permissions: user.grantedAuthorities };
}

/** The requisition as the rules see it (the API shape without server bookkeeping). */
export function formOf(doc: RequisitionDoc): RequisitionForm {
  return toApi(doc) as RequisitionForm;
}

/** The format problems of a form (bad values), leaving out what is merely missing: a draft may be partial. */
export function formatProblems(form: RequisitionForm, ctx: RuleContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of requisitionIssues(form, ctx))
    if (issue.kind === 'invalid') out[issue.path] = issue.message;
  return out;
}

/** The requisition's ICD-10 codes (the domain's parsing; upper-cased and distinct for the event). */
const icd10Codes = (doc: Pick<RequisitionDoc, 'tumorSpecimen'>): string[] => [
  ...new Set(icd10List(doc.tumorSpecimen?.icd10Codes).map((c) => c.toUpperCase())),
];

const pad = (n: number) => String(n).padStart(6, '0');
export const formatRequisitionNumber = (seq: number) => `TRF-${pad(seq)}`;
export const formatTestOrderId = (testType: string, seq: number) =>
  `${testType === 'NEXT_DX' ? 'NDX' : 'NPD'}-${pad(seq)}`;

type Billing = RequisitionDoc['billings'][number];

/** The parties' display names the downstream lists show (requisition events, schemaVersion 2 of submitted). */
export function partyNames(
  doc: Pick<RequisitionDoc, 'account' | 'physician' | 'hospitalLocation' | 'patient'>,
) {
  return {
    accountName: doc.account?.name ?? null,
    physicianName: displayNameOf(doc.physician),
    hospitalLocationId: doc.hospitalLocation?.id ?? null,
    hospitalLocationName: doc.hospitalLocation?.name ?? null,
    patientName: displayNameOf(doc.patient),
    patientNumber: doc.patient?.userId ?? null,
  };
}

/** The parties of a requisition (ids and names) as requisition events carry them. */
const partiesOf = (doc: RequisitionDoc) => ({
  accountId: doc.account?.id ?? null,
  physicianId: doc.physician?.id ?? null,
  patientId: doc.patient?.id ?? null,
  ...partyNames(doc),
});
const sameParties = (a: RequisitionDoc, b: RequisitionDoc) =>
  JSON.stringify(partiesOf(a)) === JSON.stringify(partiesOf(b));

/** Whether an edit leaves what a claim is checked with (billing summary, ICD-10 codes) as it was. */
const sameBilling = (a: RequisitionDoc, b: RequisitionDoc) =>
  JSON.stringify([requisitionBillingSummary(a as never), icd10Codes(a)]) ===
  JSON.stringify([requisitionBillingSummary(b as never), icd10Codes(b)]);

/** Billings as stored: each gets an id and audit fields; an existing billing keeps its id, creation and version. */
function storedBillings(
  incoming: unknown,
  existing: RequisitionDoc['billings'],
  userId: string,
  now: Date,
): Billing[] {
  if (!Array.isArray(incoming)) return existing;
  return incoming.map((b: any) => {
    const prior = b?.id ? existing.find((e) => e.id === b.id) : undefined;
    return {
      ...b,
      id: prior?.id ?? newId(),
      archived: false,
      createdBy: prior?.createdBy ?? userId,
      createdOn: prior?.createdOn ?? now,
      updatedBy: userId,
      updatedOn: now,
      version: (prior?.version ?? -1) + 1,
    } as Billing;
  });
}

/** The planned test orders of a draft (TEST_SELECTED), rebuilt from its order information (not reused). */
function draftTestOrders(info: RequisitionForm['orderInformation']) {
  return plannedTestOrders(info ?? {}).map((t) => ({
    id: newId(),
    testOrderId: null,
    testType: t.testType,
    orderType: t.orderType,
    status: 'TEST_SELECTED' as const,
  }));
}

const sameOrderInfo = (a: any, b: any) =>
  Boolean(a?.nextDx) === Boolean(b?.nextDx) &&
  Boolean(a?.nextPersonalDx) === Boolean(b?.nextPersonalDx) &&
  (a?.orderType ?? null) === (b?.orderType ?? null);

/** Registers the patient of a submitted requisition who is not in the patient directory yet; wired by the server. */
export type PatientRegistrar = (
  patient: NonNullable<RequisitionDoc['patient']>,
  owner: { accountId: string | null; physicianId: string | null; userId: string; requisitionId: string },
) => Promise<{ id: string; userId: string | null }>;

export interface RequisitionServiceDeps {
  ctx: PlatformContext;
  models: RequisitionModels;
  verifySignature?: SignatureVerifier;
  registerPatient?: PatientRegistrar;
}

/** The blocks a clinical reviewer (CAN_REVIEW_DIAGNOSIS without Edit) may save on a submitted requisition. */
export const REVIEWER_BLOCKS = ['tumorSpecimen', 'normalSpecimen', 'clinicalReviewStatus'] as const;

function reviewerInput<T extends Record<string, any>>(input: T): T {
  const out: Record<string, unknown> = { version: input.version };
  for (const k of REVIEWER_BLOCKS) if (input[k] !== undefined) out[k] = input[k];
  return out as T;
}

/** Where the Edit action needs a test still running: one that is neither complete nor cancelled (the Edit rule). */
const A_TEST_RUNNING: Record<string, unknown> = {
  testOrders: { $elemMatch: { status: { $nin: ['CANCELLED', ...COMPLETE_TEST_STATUSES] } } },
};
/** Where a submitted requisition may be deleted: every test cancelled and no sample on hold (the Delete rule). */
const ALL_TESTS_CANCELLED: Record<string, unknown> = {
  testOrders: { $not: { $elemMatch: { status: { $ne: 'CANCELLED' } } } },
  sampleStatuses: { $ne: 'ON_HOLD' },
};

/**
 * The requisition lifecycle (spec 1 section 4): create, save, sign, submit, copy, one-click subsequent order,
 * merge and delete.
 *
 * Concurrency: each change is ONE conditional single-document update whose filter carries what the request
 * checked: the `version` it read (every user-facing write increments it, and the requisition events carry it),
 * and the facts behind the rule it applied that other writers change without a version (the test statuses the
 * lab projects, the sample statuses). A state change is committed with its events in that same update (the
 * outbox). When the update matches nothing, the requisition changed in between: with a version from the client
 * that is a 409; without one the request is applied again to the new state (see `conditional`).
 */
export class RequisitionService {
  private readonly Requisition: Model<RequisitionDoc>;
  private readonly config: Config;

  constructor(private readonly deps: RequisitionServiceDeps) {
    this.Requisition = deps.models.Requisition;
    this.config = deps.ctx.config;
  }

  /** A requisition the user may see (404 otherwise, so another account's ids reveal nothing). */
  async get(user: SessionUser, id: string, opts: { includeDeleted?: boolean } = {}): Promise<RequisitionDoc> {
    const includeDeleted = Boolean(opts.includeDeleted && can(user, 'CAN_DELETE_TRF'));
    const doc = await this.Requisition.findOne(requisitionByIdFilter(user, id, { includeDeleted }))
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
  private conditional<T>(strict: boolean, attempt: () => Promise<T | null>): Promise<T> {
    return conditionalWrite(attempt, { strict, message: MSG_STALE });
  }

  /** The account and physician a user puts on a requisition must be theirs (lab staff: any). */
  private checkOwnership(user: SessionUser, form: Partial<RequisitionForm>) {
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

  private editable(
    form: Partial<RequisitionForm>,
    existing: RequisitionDoc | null,
    user: SessionUser,
    now: Date,
  ) {
    const set: Record<string, unknown> = {};
    for (const key of FORM_BLOCKS) {
      if (key in form && (form as any)[key] !== undefined) set[key] = (form as any)[key];
    }
    if ('billings' in set)
      set.billings = storedBillings(set.billings, existing?.billings ?? [], user.id, now);
    // the clinical review status is the reviewers' (CAN_REVIEW_DIAGNOSIS)
    if (form.clinicalReviewStatus !== undefined && can(user, 'CAN_REVIEW_DIAGNOSIS')) {
      set.clinicalReviewStatus = form.clinicalReviewStatus;
    }
    return set;
  }

  private checkFormat(form: RequisitionForm, user: SessionUser) {
    const problems = formatProblems(form, ruleContext(user));
    if (Object.keys(problems).length) {
      const [field, message] = Object.entries(problems)[0];
      throw badRequest(`${message} (${field})`, { fields: problems });
    }
  }

  async create(user: SessionUser, input: RequisitionForm): Promise<RequisitionDoc> {
    const now = new Date();
    this.checkOwnership(user, input);
    const set = this.editable(normalizeForSave(input), null, user, now);
    const merged = { ...set } as RequisitionForm;
    this.checkFormat(merged, user);
    const doc = await this.Requisition.create({
      ...set,
      status: 'DRAFT',
      testOrders: draftTestOrders((set.orderInformation as any) ?? null),
      parentTestOrderForm: (input as any).parentTestOrderForm ?? null,
      createdBy: user.id,
      updatedBy: user.id,
      createdOn: now,
      updatedOn: now,
    });
    return doc.toObject() as RequisitionDoc;
  }

  /**
   * Save (PUT /{id}): a draft save carries status DRAFT and never changes a submitted requisition; a save of a
   * submitted requisition is an Edit (CAN_EDIT_TRF and the Edit rule); `deleted: true` is a delete.
   */
  async save(
    user: SessionUser,
    id: string,
    input: RequisitionForm & { deleted?: boolean; version?: number },
  ): Promise<RequisitionDoc> {
    if (input.deleted === true) return this.remove(user, id);
    return this.conditional(typeof input.version === 'number', async () => {
      const doc = await this.get(user, id);
      if (typeof input.version === 'number' && input.version !== doc.version) throw conflict(MSG_STALE);
      const now = new Date();
      const asDraft = input.status === 'DRAFT';
      let body = input;
      // what the rule applied below relied on, beyond the version: part of the update's filter
      let guard: Record<string, unknown> = { status: doc.status };
      if (doc.status !== 'DRAFT') {
        if (asDraft) throw conflict(MSG_ALREADY_SUBMITTED);
        const actions = this.actionsFor(user, doc);
        // a clinical reviewer without the Edit action (spec 2 section 8: CAN_REVIEW_DIAGNOSIS edits the specimen
        // of a non-draft form) saves the specimens and the review status, nothing else
        const reviewOnly = !actions.edit && can(user, 'CAN_REVIEW_DIAGNOSIS') && !doc.deleted;
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
      this.checkOwnership(user, body);
      const set = this.editable(normalizeForSave({ ...formOf(doc), ...body }), doc, user, now);
      const merged = { ...formOf(doc), ...set } as RequisitionForm;
      this.checkFormat(merged, user);
      // a submitted requisition keeps its ordered tests; a draft's planned tests follow its order information
      if (doc.status === 'DRAFT' && !sameOrderInfo(doc.orderInformation, merged.orderInformation)) {
        set.testOrders = draftTestOrders(merged.orderInformation);
      }
      // a signed draft whose signed content changes loses its approvals: the user signs again
      if (doc.status === 'DRAFT' && doc.approvals?.length) {
        const approvals = this.approvalsAfter(doc, merged);
        if (approvals.length !== doc.approvals.length) set.approvals = approvals;
      }
      const after = { ...doc, ...set } as RequisitionDoc;
      const event = this.changedEvent(doc, after, this.editChanges(doc, after), user, now);
      const update = { $set: { ...set, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } };
      const res = await this.Requisition.findOneAndUpdate(
        { _id: id, version: doc.version, deleted: { $ne: true }, ...guard },
        event ? withOutbox(update, event) : update,
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
      if (res && event) this.deps.ctx.nudgeOutbox();
      return res;
    });
  }

  actionsFor(user: SessionUser, doc: RequisitionDoc, editing = false) {
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
        subsequentOrder: {
          testType: this.config.SUBSEQUENT_ORDER_TEST_TYPE,
          orderType: this.config.SUBSEQUENT_ORDER_ORDER_TYPE,
          excludedAccountId: this.config.SUBSEQUENT_ORDER_EXCLUDED_ACCOUNT || null,
        },
      } as any,
    );
  }

  /** Soft delete: the requisition and its tests are marked deleted (the Delete rule of spec 1 section 4). */
  async remove(user: SessionUser, id: string): Promise<RequisitionDoc> {
    return this.conditional(false, async () => {
      const doc = await this.get(user, id);
      const draft = doc.status === 'DRAFT';
      const allowed = draft
        ? can(user, 'CAN_CREATE_TRF') || can(user, 'CAN_DELETE_TRF')
        : this.actionsFor(user, doc).delete;
      if (!allowed) {
        throw forbidden(
          'This requisition cannot be deleted: it needs CAN_DELETE_TRF, no test that is not cancelled and no sample on hold.',
        );
      }
      const now = new Date();
      const update = { $set: { deleted: true, updatedOn: now, updatedBy: user.id }, $inc: { version: 1 } };
      // a submitted requisition is known downstream (the lab holds its tests): tell them, in the same write
      const event = this.changedEvent(doc, { ...doc, deleted: true }, ['deleted'], user, now);
      const res = await this.Requisition.findOneAndUpdate(
        {
          _id: id,
          version: doc.version,
          status: doc.status,
          deleted: { $ne: true },
          ...(draft ? {} : ALL_TESTS_CANCELLED),
        },
        event ? withOutbox(update, event) : update,
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
      if (res && event) this.deps.ctx.nudgeOutbox();
      return res;
    });
  }

  /**
   * The requisition-changed event of a write from `before` to `after` (the state after, version before + 1), or
   * null when there is nothing to tell: a draft was never published (downstream does not know it), and a write
   * that changes none of `changes` is not an event. Requisition events carry the state after the change, so a
   * consumer applies the newest version it has seen. (Public for the patient-merge consumer,
   * consumers/patient-merges.ts, which moves requisitions to another patient with this same event.)
   */
  changedEvent(
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
      },
    });
  }

  /** What a save of a submitted requisition changes that downstream must know (clinical review, parties). */
  private editChanges(before: RequisitionDoc, after: RequisitionDoc): RequisitionChange[] {
    const changes: RequisitionChange[] = [];
    if ((before.clinicalReviewStatus ?? null) !== (after.clinicalReviewStatus ?? null))
      changes.push('clinical-review-changed');
    if (!sameParties(before, after)) changes.push('parties-changed');
    if ((before.billingReview?.status ?? null) !== (after.billingReview?.status ?? null))
      changes.push('billing-review-changed');
    if (!sameBilling(before, after)) changes.push('billing-changed');
    return changes;
  }

  /**
   * Set the billing review status of a submitted requisition (CAN_EDIT_BILLING): one conditional write with its
   * requisition-changed event (`billing-review-changed`), which the billing service qualifies its cases with.
   * Setting the status it already has changes nothing.
   */
  async setBillingReview(
    user: SessionUser,
    id: string,
    status: BillingReviewStatus | null,
  ): Promise<RequisitionDoc> {
    if (!can(user, 'CAN_EDIT_BILLING')) throw forbidden();
    return this.conditional(false, async () => {
      const doc = await this.get(user, id);
      if (doc.status === 'DRAFT' || doc.deleted)
        throw conflict('Only a submitted requisition has a billing review.');
      if ((doc.billingReview?.status ?? null) === status) return doc;
      const now = new Date();
      const after = { ...doc, billingReview: { status } } as RequisitionDoc;
      const update = {
        $set: { billingReview: { status }, updatedOn: now, updatedBy: user.id },
        $inc: { version: 1 },
      };
      const event = this.changedEvent(doc, after, this.editChanges(doc, after), user, now);
      const res = await this.Requisition.findOneAndUpdate(
        { _id: id, version: doc.version, deleted: { $ne: true } },
        event ? withOutbox(update, event) : update,
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
      if (res && event) this.deps.ctx.nudgeOutbox();
      return res;
    });
  }

  /**
   * The approvals a draft keeps after a save or a submit body: all of them when nothing the signature covers
   * changed, none otherwise (the domain's rule; values are compared after the model's casting, so '40' typed
   * for a stored 40 or a field the model does not keep is no change).
   */
  private approvalsAfter(doc: RequisitionDoc, merged: RequisitionForm): RequisitionDoc['approvals'] {
    if (!doc.approvals?.length) return doc.approvals ?? [];
    const cast = (form: Record<string, unknown>) => {
      const picked: Record<string, unknown> = {};
      for (const k of SIGNED_BLOCKS) picked[k] = form[k];
      return new this.Requisition(picked).toObject() as unknown as Record<string, unknown>;
    };
    return approvalsAfterSave(doc.approvals, cast(formOf(doc) as any), cast(merged as any));
  }

  /** Sign: the signer's own login password, then an approval (one per signer; a new signature replaces theirs). */
  async sign(user: SessionUser, id: string, password: string): Promise<RequisitionDoc> {
    if (!this.deps.verifySignature) throw new Error('no signature verifier configured');
    const doc = await this.get(user, id);
    if (doc.status !== 'DRAFT') throw conflict(MSG_ALREADY_SUBMITTED);
    const ok = await this.deps.verifySignature(user.id, password);
    if (!ok) throw badRequest(MSG_INCORRECT_PASSWORD, { field: 'password' });
    return this.conditional(false, async () => {
      const current = await this.get(user, id);
      if (current.status !== 'DRAFT') throw conflict(MSG_ALREADY_SUBMITTED);
      const approvals = [
        ...current.approvals.filter((a) => a.approvedBy?.id !== user.id),
        {
          approvedBy: { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() },
          createdOn: new Date(),
        },
      ];
      // the approvals list read, replaced: conditional on the version it was read at
      return this.Requisition.findOneAndUpdate(
        { _id: id, version: current.version, status: 'DRAFT', deleted: { $ne: true } },
        { $set: { approvals, updatedOn: new Date(), updatedBy: user.id }, $inc: { version: 1 } },
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
    });
  }

  private submissionProblems(form: RequisitionForm, user: SessionUser) {
    const problems = { ...submitProblems(form, ruleContext(user)) } as Partial<
      Record<BlockName, FieldErrors>
    >;
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

  /** The ordered tests with their numbers; `taken`: numbers allocated by an earlier attempt, used first. */
  private async allocateTestOrders(info: RequisitionForm['orderInformation'], taken: number[] = []) {
    const planned = plannedTestOrders(info ?? {});
    const out = [];
    for (const [i, t] of planned.entries()) {
      const seq = (taken[i] ??= await nextSequence(this.deps.ctx.mongo, 'testOrderId'));
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

  private submittedEvent(doc: RequisitionDoc, user: SessionUser, now: Date, createPdf: boolean) {
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
  async submit(
    user: SessionUser,
    input: RequisitionForm & { id?: string; version?: number },
    createPdfAsked: boolean,
  ): Promise<RequisitionDoc> {
    const id = input.id ?? (await this.create(user, input))._id;
    const numbers: { requisition: number | null; tests: number[] } = { requisition: null, tests: [] };
    return this.conditional(typeof input.version === 'number', async () => {
      const doc = await this.get(user, id);
      if (doc.status !== 'DRAFT') throw conflict('This requisition has already been submitted.');
      if (typeof input.version === 'number' && input.version !== doc.version) throw conflict(MSG_STALE);
      this.checkOwnership(user, input);
      const now = new Date();
      const set = this.editable(normalizeForSave({ ...formOf(doc), ...input }), doc, user, now);
      const merged = { ...formOf(doc), ...set } as RequisitionForm;
      // the signature covers what is submitted: a body that changes signed content needs a new signature
      merged.approvals = this.approvalsAfter(doc, merged) as RequisitionForm['approvals'];
      this.checkFormat(merged, user);
      const problems = this.submissionProblems(merged, user);
      if (Object.keys(problems).length) {
        throw unprocessable(
          `The requisition cannot be submitted yet: complete ${Object.keys(problems).join(', ')}.`,
          { blocks: problems },
        );
      }
      if (merged.patient && !merged.patient.id) {
        if (!this.deps.registerPatient) {
          throw unprocessable('The requisition cannot be submitted yet: choose the patient.', {
            blocks: { patient: { 'patient.id': 'This field is required' } },
          });
        }
        const registered = await this.deps.registerPatient(merged.patient as any, {
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
      numbers.requisition ??= await nextSequence(this.deps.ctx.mongo, 'testRequisitionId', id);
      const testRequisitionId = formatRequisitionNumber(numbers.requisition);
      const testOrders = await this.allocateTestOrders(merged.orderInformation, numbers.tests);
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
      const event = this.submittedEvent(next, user, now, createPdf);
      const res = await this.Requisition.findOneAndUpdate(
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
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
      // nothing matched: read it again (already submitted by another request: the 409 above)
      if (res) this.deps.ctx.nudgeOutbox();
      return res;
    });
  }

  /** Copy: a new draft of the same blocks, without identifiers, approvals, tests and attachments. */
  async copy(user: SessionUser, id: string): Promise<RequisitionDoc> {
    const doc = await this.get(user, id);
    if (!this.actionsFor(user, doc).copy) {
      throw conflict('Only a submitted requisition that is not deleted can be copied.');
    }
    const form = copyForm(formOf(doc));
    return this.create(user, {
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
  async subsequentOrder(
    user: SessionUser,
    id: string,
    opts: { collectionDate?: string | null; collectionMode?: string | null },
  ): Promise<RequisitionDoc> {
    const source = await this.get(user, id);
    if (!this.actionsFor(user, source).subsequentOrder) {
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
    const testOrders = await this.allocateTestOrders(orderInformation);
    const newIdValue = newId();
    const testRequisitionId = formatRequisitionNumber(
      await nextSequence(this.deps.ctx.mongo, 'testRequisitionId', newIdValue),
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
    const event = this.submittedEvent(doc, user, now, can(user, 'CAN_CREATE_TRF_PDF'));
    const created = await this.Requisition.create({ ...doc, outbox: outboxForInsert(event) });
    this.deps.ctx.nudgeOutbox();
    return created.toObject() as RequisitionDoc;
  }

  /**
   * Merge (POST /merge?sourceTrfId&targetTrfId, no samples selected): the duplicate (source) form's
   * attachments and LIMS projects move to the primary (target) form, and the source becomes INVALID with a
   * comment naming the target. Both must be submitted, of the same patient, without a cancelled test.
   * Repeating a merge that already happened changes nothing.
   */
  async merge(user: SessionUser, sourceId: string, targetId: string): Promise<RequisitionDoc> {
    if (sourceId === targetId) throw badRequest('Choose two different requisitions to merge.');
    const [source, target] = [await this.get(user, sourceId), await this.get(user, targetId)];
    const alreadyMerged =
      source.status === 'INVALID' && source.comment?.includes(target.testRequisitionId ?? '-');
    if (alreadyMerged) return target;
    for (const d of [source, target]) {
      const problem = mergeTrfProblem({ ...d, testStatuses: d.testOrders.map((t) => t.status) });
      if (problem) throw conflict(problem);
    }
    if ((source.patient?.id ?? null) !== (target.patient?.id ?? null)) {
      throw conflict('Only requisitions of the same patient can be merged.');
    }
    const now = new Date();
    const patientId = target.patient?.id ?? null;
    // The target gains the source's attachments it lacks and its LIMS projects: pushed (the list is server-owned
    // and may grow meanwhile, so it is never written whole), conditional on the target as checked. Done before
    // the source is invalidated and idempotent, so a merge cut short is completed by repeating it.
    const merged = await this.conditional(false, async () => {
      const t = await this.get(user, targetId);
      if (t.status !== 'SUBMITTED') throw conflict('Only submitted requisitions can be merged.');
      if ((t.patient?.id ?? null) !== patientId)
        throw conflict('Only requisitions of the same patient can be merged.');
      const listed = new Set(t.attachments.map((a) => a.id));
      const missing = source.attachments.filter((a) => !listed.has(a.id) && a.type !== 'TRF');
      return this.Requisition.findOneAndUpdate(
        {
          _id: targetId,
          version: t.version,
          status: 'SUBMITTED',
          deleted: { $ne: true },
          'testOrders.status': { $ne: 'CANCELLED' },
          'attachments.id': { $nin: missing.map((a) => a.id) },
        },
        {
          $push: { attachments: { $each: missing } },
          $addToSet: { limsProjectIds: { $each: source.limsProjectIds ?? [] } },
          $set: { updatedOn: now, updatedBy: user.id },
          $inc: { version: 1 },
        },
        { returnDocument: 'after' },
      )
        .lean<RequisitionDoc>()
        .exec();
    });
    // the source becomes INVALID with its requisition-changed event, at the version its event names
    const comment = `Merged into ${target.testRequisitionId}`;
    await this.conditional(false, async () => {
      const s = await this.get(user, sourceId);
      if (s.status === 'INVALID' && s.comment === comment) return true;
      if (s.status !== 'SUBMITTED') throw conflict('Only submitted requisitions can be merged.');
      const $set = {
        status: 'INVALID' as const,
        comment,
        mergedInto: { id: target._id, testRequisitionId: target.testRequisitionId ?? null },
        updatedOn: now,
        updatedBy: user.id,
      };
      const event = this.changedEvent(s, { ...s, ...$set }, ['invalidated'], user, now);
      const update = { $set, $inc: { version: 1 } };
      const res = await this.Requisition.updateOne(
        {
          _id: sourceId,
          version: s.version,
          status: 'SUBMITTED',
          deleted: { $ne: true },
          'testOrders.status': { $ne: 'CANCELLED' },
        },
        event ? withOutbox(update, event) : update,
      ).exec();
      if (!res.matchedCount) return null;
      if (event) this.deps.ctx.nudgeOutbox();
      return true;
    });
    return merged;
  }
}
