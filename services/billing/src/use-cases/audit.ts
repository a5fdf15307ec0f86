/**
 * How a change of a billing case reads in the audit trail (docs/audit.md "Changes"): the case, its patient and its
 * account; `update` (or `delete` when it becomes deleted); the names of the fields changed, never values. Every
 * change through changeCase's default writer commits with its entry in one transaction (the platform's
 * AuditTrail.update), with the case's own history entry and billing-case event in the same update.
 */
import { changeInputOf, type AuditInput, type ChangeDescription } from '@onco/platform';
import type { BillingCaseDoc } from '../models';

type CaseRecord = BillingCaseDoc & Record<string, unknown>;

export const BILLING_CASE_CHANGE: ChangeDescription<CaseRecord> = {
  type: 'billing-case',
  subject: (doc) => ({
    id: String(doc._id),
    patientId: doc.patient?.id ?? null,
    accountIds: [doc.account?.id],
  }),
  action: (before, after) => (!before ? 'create' : after.deleted && !before.deleted ? 'delete' : 'update'),
  ignore: ['createdOn', 'createdBy'],
};

/** The entry of a change whose before and after the caller knows (a bulk write's, in its own transaction). */
export const billingCaseChangeInput = (before: BillingCaseDoc, after: BillingCaseDoc): AuditInput =>
  changeInputOf(BILLING_CASE_CHANGE, before as CaseRecord, after as CaseRecord);
