/**
 * How a change of a patient reads in the audit trail (docs/audit.md "Changes"): the patient, itself its patient,
 * and its accounts; `create` for a new patient, else `update`; the names of the fields changed, never values.
 * A single write commits with its entry through the platform's AuditTrail.update / create. The writes that are
 * already one transaction of several documents (the billing entries, Merge Patients and its undo, the bulk edit)
 * record their entries in that transaction (AuditTrail.updateIn / recordIn), so they commit or roll back together.
 */
import type { Connection } from 'mongoose';
import {
  auditTrailOf,
  changeInputOf,
  type AuditInput,
  type AuditTrail,
  type ChangeDescription,
} from '@onco/platform';
import type { PatientDoc } from '../models';

type Doc = Record<string, unknown>;

export const PATIENT_CHANGE: ChangeDescription<PatientDoc & Doc> = {
  type: 'patient',
  subject: (doc) => ({ id: String(doc._id), patientId: String(doc._id), accountIds: doc.accountIds ?? [] }),
  // a create's own bookkeeping, and the counter that serializes the patient's billing writes
  ignore: ['createdOn', 'createdBy', 'billingsVersion'],
};

/** The audit trail of the connection the reference models live on (the process's one, as auditTrailOf(ctx)). */
export const patientTrail = (conn: Connection): AuditTrail => auditTrailOf({ mongo: conn });

/** The entry of a change of a patient: its before and after, plus names the documents do not show (`billings.x`). */
export const patientChangeInput = (
  before: Doc | null,
  after: Doc,
  o: { changes?: string[]; extra?: string[] } = {},
): AuditInput => changeInputOf(PATIENT_CHANGE, before as never, after as PatientDoc & Doc, o);
