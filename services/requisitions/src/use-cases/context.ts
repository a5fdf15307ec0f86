/**
 * The requisitions module's use cases share these: what they take (RequisitionDeps), the messages, the rule
 * context, the numbers' formats and the pure comparisons of two states of a requisition.
 */
import { newId, toApi, type PlatformContext, type SessionUser } from '@onco/platform';
import {
  COMPLETE_TEST_STATUSES,
  displayNameOf,
  icd10List,
  plannedTestOrders,
  requisitionIssues,
  type RequisitionForm,
  type RuleContext,
  requisitionBillingSummary,
} from '@onco/domain';
import { type RequisitionDoc, type RequisitionModels } from '../models';
import type { TrfJobData } from '../workers/trf-jobs';

/** Checks a user's own login password (counts toward the account's lockout); wired by the server. */
export type SignatureVerifier = (userId: string, password: string) => Promise<boolean>;

export const MSG_INCORRECT_PASSWORD = 'Incorrect password. Try again.';
export const MSG_NOT_FOUND = 'Requisition not found';
export const MSG_ALREADY_SUBMITTED =
  'This requisition has already been submitted; a draft save cannot change it. Reload it to see its current state.';
export const MSG_STALE =
  'This requisition was changed by someone else since you opened it. Reload it and make your change again.';
/** A review status changed by someone without its permission (the billing review's names CAN_EDIT_BILLING). */
export const msgReviewPermission = (permission: string, what: string) =>
  `Only users with ${permission} may change the ${what} status.`;

export const ICD10 = /^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/;

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
export const icd10Codes = (doc: Pick<RequisitionDoc, 'tumorSpecimen'>): string[] => [
  ...new Set(icd10List(doc.tumorSpecimen?.icd10Codes).map((c) => c.toUpperCase())),
];

export const pad = (n: number) => String(n).padStart(6, '0');
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
export const partiesOf = (doc: RequisitionDoc) => ({
  accountId: doc.account?.id ?? null,
  physicianId: doc.physician?.id ?? null,
  patientId: doc.patient?.id ?? null,
  ...partyNames(doc),
});
export const sameParties = (a: RequisitionDoc, b: RequisitionDoc) =>
  JSON.stringify(partiesOf(a)) === JSON.stringify(partiesOf(b));

/** Whether an edit leaves what a claim is checked with (billing summary, ICD-10 codes) as it was. */
export const sameBilling = (a: RequisitionDoc, b: RequisitionDoc) =>
  JSON.stringify([requisitionBillingSummary(a as never), icd10Codes(a)]) ===
  JSON.stringify([requisitionBillingSummary(b as never), icd10Codes(b)]);

/** Billings as stored: each gets an id and audit fields; an existing billing keeps its id, creation and version. */
export function storedBillings(
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
export function draftTestOrders(info: RequisitionForm['orderInformation']) {
  return plannedTestOrders(info ?? {}).map((t) => ({
    id: newId(),
    testOrderId: null,
    testType: t.testType,
    orderType: t.orderType,
    status: 'TEST_SELECTED' as const,
  }));
}

export const sameOrderInfo = (a: any, b: any) =>
  Boolean(a?.nextDx) === Boolean(b?.nextDx) &&
  Boolean(a?.nextPersonalDx) === Boolean(b?.nextPersonalDx) &&
  (a?.orderType ?? null) === (b?.orderType ?? null);

/** Registers the patient of a submitted requisition who is not in the patient directory yet; wired by the server. */
export type PatientRegistrar = (
  patient: NonNullable<RequisitionDoc['patient']>,
  owner: { accountId: string | null; physicianId: string | null; userId: string; requisitionId: string },
) => Promise<{ id: string; userId: string | null }>;

/** What every use case of the requisitions module takes: the platform, the models and the calls to other modules. */
export interface RequisitionDeps {
  ctx: PlatformContext;
  models: RequisitionModels;
  verifySignature?: SignatureVerifier;
  registerPatient?: PatientRegistrar;
  /**
   * Queue a TRF PDF job at once (a submission's, an Edit's new version; BullMQ, its deterministic id), beside the
   * consumer that queues the same job from the event: the PDF does not wait for Kafka (docs/decisions.md "The TRF
   * job, queued twice"). Absent in tests that build the use cases without the module.
   */
  queueTrf?: (job: TrfJobData) => Promise<unknown>;
}

/** The blocks a clinical reviewer (CAN_REVIEW_DIAGNOSIS without Edit) may save on a submitted requisition. */
export const REVIEWER_BLOCKS = ['tumorSpecimen', 'normalSpecimen', 'clinicalReviewStatus'] as const;

export function reviewerInput<T extends Record<string, any>>(input: T): T {
  const out: Record<string, unknown> = { version: input.version };
  for (const k of REVIEWER_BLOCKS) if (input[k] !== undefined) out[k] = input[k];
  return out as T;
}

/** Where the Edit action needs a test still running: one that is neither complete nor cancelled (the Edit rule). */
export const A_TEST_RUNNING: Record<string, unknown> = {
  testOrders: { $elemMatch: { status: { $nin: ['CANCELLED', ...COMPLETE_TEST_STATUSES] } } },
};
/** Where a submitted requisition may be deleted: every test cancelled and no sample on hold (the Delete rule). */
export const ALL_TESTS_CANCELLED: Record<string, unknown> = {
  testOrders: { $not: { $elemMatch: { status: { $ne: 'CANCELLED' } } } },
  sampleStatuses: { $ne: 'ON_HOLD' },
};
