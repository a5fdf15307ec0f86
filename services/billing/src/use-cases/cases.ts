import { randomUUID } from 'node:crypto';
import type { BillingCaseStatus } from '@onco/domain';
import { createEvent, withOutbox } from '@onco/events';
import {
  actorOf,
  auditTrailOf,
  conditionalWrite,
  conflict,
  notFound,
  scopeFilter,
  type SessionUser,
} from '@onco/platform';
import {
  CASE_CHANGE_FIELDS,
  type BillingCaseDoc,
  type CaseChange,
  type CaseChangeField,
  type CaseHistoryEntry,
} from '../models';
import { BILLING_CASE_CHANGE } from './audit';
import type { BillingDeps } from './deps';

/**
 * The billing service's one write path for a billing case (spec 3 sections 3 and 4.3). Every change is ONE
 * conditional update of the case document on the version read: the new fields, a case history entry when the
 * status changes (or when asked), and the `billing-case` event in the case's outbox, so the change and its event
 * commit together and the relay publishes the event once Kafka has it. A lost race re-reads and re-decides.
 * The default writer commits the update with its audit entry in one transaction (docs/audit.md "Changes"): who
 * (the user, or `system` for a consumer), the case, its patient and account, the fields changed.
 */

/** The data scope of billing cases: the user's accounts and physicians (billing staff: all). */
export const billingScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'account.id', physician: 'physician.id' });

/** Who made a change: a user, or the system (consumers, the submission worker). */
export type CaseActor = { id: string; name: string };
export const SYSTEM_ACTOR: CaseActor = { id: 'system', name: 'system' };

/** What a change does to a case, decided from its current state (throw an AppError to refuse). */
export interface CaseDecision {
  /** fields to set (never caseHistory, outbox, version) */
  set?: Partial<
    Pick<
      BillingCaseDoc,
      | 'caseStatus'
      | 'billingCode'
      | 'timePoint'
      | 'assignee'
      | 'errorDetails'
      | 'testStatus'
      | 'reviewStatus'
      | 'caseQualifiedDate'
      | 'testId'
      | 'testRequisitionId'
      | 'testOrderFormId'
      | 'accountName'
      | 'account'
      | 'physician'
      | 'patient'
      | 'testType'
      | 'orderType'
      | 'deleted'
    >
  > &
    Record<string, unknown>;
  /** add a history entry even when the status does not change (default: only on a status change) */
  history?: boolean;
  /** why (a status set by hand): kept on the history entry */
  reason?: string;
  /** no event and no write: the decision found nothing to change */
  noop?: boolean;
}

/** A case in the caller's data scope, or 404. */
export async function findCase(deps: BillingDeps, user: SessionUser, id: string): Promise<BillingCaseDoc> {
  const doc = await deps.models.BillingCase.findOne({ _id: id, deleted: false, ...billingScope(user) })
    .lean<BillingCaseDoc>()
    .exec();
  if (!doc) throw notFound(`Billing case ${id} was not found.`);
  return doc;
}

/** What a billing-case event says of the case after a change. */
export type CaseEventFields = Pick<
  BillingCaseDoc,
  '_id' | 'testOrderId' | 'testOrderFormId' | 'caseStatus' | 'billingCode' | 'errorDetails'
>;

/** The billing-case event for a case after a change. */
export function billingCaseEvent(
  after: CaseEventFields,
  previousStatus: BillingCaseStatus | null,
  by: CaseActor,
  at: Date,
) {
  return createEvent(
    'billing-case',
    {
      data: {
        billingCaseId: after._id,
        testOrderId: after.testOrderId,
        requisitionId: after.testOrderFormId ?? 'unknown',
        caseStatus: after.caseStatus,
        previousStatus,
        billingCode: after.billingCode ?? null,
        errorDetails: after.errorDetails ?? null,
        changedBy: by,
        changedOn: at.toISOString(),
      },
    },
    { now: () => at },
  );
}

/** A history entry for the case's status after a change: who made it and what else it set. */
export const historyEntry = (
  status: BillingCaseStatus,
  errorDetails: string | null,
  at: Date,
  by: CaseActor,
  changes: CaseChange[] = [],
  reason?: string,
): CaseHistoryEntry => ({
  id: randomUUID(),
  createdOn: at,
  status,
  errorDetails,
  by: by.name,
  byId: by.id,
  ...(changes.length ? { changes } : {}),
  ...(reason ? { reason } : {}),
});

/** The value of a changed field as the history shows it (the assignee by name). */
function changeValue(doc: BillingCaseDoc, field: CaseChangeField): string | null {
  const v = field === 'assignee' ? doc.assignee?.name : doc[field];
  return v === undefined || v === null || v === '' ? null : String(v);
}

/** What a change set besides the status, field by field (billing code, timepoint, assignee). */
export function caseChanges(before: BillingCaseDoc, after: BillingCaseDoc): CaseChange[] {
  return CASE_CHANGE_FIELDS.flatMap((field) => {
    const from = changeValue(before, field);
    const to = changeValue(after, field);
    // the assignee is a person: compared by id (two specialists may share a name), shown by name
    const same =
      field === 'assignee' ? (before.assignee?.id ?? null) === (after.assignee?.id ?? null) : from === to;
    return same ? [] : [{ field, from, to }];
  });
}

/**
 * One decided change as a conditional update (not yet written): the filter on the version read, the update with
 * the fields, the history entry and the event, and the case as it will be once written. Null for a noop. Used by
 * writeCaseDecision and by the writers that send several at once (bulk submit).
 */
export function caseWrite(
  doc: BillingCaseDoc,
  d: CaseDecision,
  by: CaseActor,
  at: Date,
): {
  filter: Record<string, unknown>;
  update: Record<string, unknown>;
  /** the case as read (what the change was decided on) and as it will be once written */
  before: BillingCaseDoc;
  after: BillingCaseDoc;
} | null {
  if (d.noop) return null;
  const set = { ...(d.set ?? {}) };
  const after = {
    ...doc,
    ...set,
    updatedOn: at,
    updatedBy: by.id,
    version: doc.version + 1,
  } as BillingCaseDoc;
  const statusChanged = after.caseStatus !== doc.caseStatus;
  const changes = caseChanges(doc, after);
  const entry =
    statusChanged || d.history || changes.length
      ? historyEntry(after.caseStatus, after.errorDetails ?? null, at, by, changes, d.reason)
      : null;
  const event = billingCaseEvent(after, doc.caseStatus, by, at);
  const update: Record<string, unknown> = {
    $set: { ...set, updatedOn: at, updatedBy: by.id },
    $inc: { version: 1 },
  };
  if (entry) update.$push = { caseHistory: entry };
  after.caseHistory = entry ? [...doc.caseHistory, entry] : doc.caseHistory;
  return {
    filter: { _id: doc._id, version: doc.version },
    update: withOutbox(update, event),
    before: doc,
    after,
  };
}

/** One decided change as caseWrite builds it. */
export type CaseWrite = NonNullable<ReturnType<typeof caseWrite>>;
/** Writes one conditional update; true when it matched the version read (and so was applied). */
export type CaseWriter = (w: CaseWrite) => Promise<boolean>;

/**
 * The default writer: the conditional update (cast with the schema, as mongoose's updateOne) and its audit entry,
 * in one transaction (AuditTrail.update); true when it matched the version read. A version filter that matches
 * always modifies (the update increments the version).
 */
const castingWriter =
  ({ models }: BillingDeps): CaseWriter =>
  async (w) =>
    (await auditTrailOf({ mongo: models.BillingCase.db }).update(
      models.BillingCase,
      w.filter,
      w.update,
      BILLING_CASE_CHANGE,
    )) !== null;

/**
 * Write one decided change on the case as read. Returns the case after the change, the same case for a noop, or
 * null when the case changed meanwhile (the caller reads again).
 */
export async function writeCaseDecision(
  deps: BillingDeps,
  doc: BillingCaseDoc,
  d: CaseDecision,
  by: CaseActor,
  at: Date,
  write: CaseWriter = castingWriter(deps),
): Promise<BillingCaseDoc | null> {
  const w = caseWrite(doc, d, by, at);
  if (!w) return doc;
  return (await write(w)) ? w.after : null;
}

/**
 * Read (with `read`), decide, write; again on a lost race (5 attempts, then 409). `write` replaces the default
 * writer (the submission worker's own, which skips casting).
 */
export async function changeCase(
  deps: BillingDeps,
  read: () => Promise<BillingCaseDoc>,
  decide: (doc: BillingCaseDoc) => CaseDecision,
  by: CaseActor,
  opts: { now?: () => Date; write?: CaseWriter } = {},
): Promise<BillingCaseDoc> {
  const now = opts.now ?? (() => new Date());
  const write = opts.write ?? castingWriter(deps);
  return conditionalWrite(
    async () => {
      const doc = await read();
      return writeCaseDecision(deps, doc, decide(doc), by, now(), write);
    },
    {
      attempts: 5,
      message: 'The billing case was changed by someone else at the same time. Reload it and try again.',
    },
  );
}

/** A decided change or its refusal (the rule checked again on the case as written). */
export const orRefuse = (why: string | null, d: CaseDecision): CaseDecision => {
  if (why) throw conflict(why);
  return d;
};

/** Read one case in the user's scope, decide, write: the shape of every user's change to one case. */
export const changeUserCase = (
  deps: BillingDeps,
  user: SessionUser,
  id: string,
  decide: (doc: BillingCaseDoc) => CaseDecision,
) => changeCase(deps, () => findCase(deps, user, id), decide, actorOf(user));
