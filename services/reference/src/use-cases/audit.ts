/**
 * How a change of reference data reads in the audit trail (docs/audit.md "Changes"): a patient (itself its
 * patient, on behalf of its accounts), an account, a physician, a hospital location or a maintenance window (no
 * patient; on behalf of the record's account where it has one); `create` for a new record, `delete` for a soft
 * delete, else `update`; the names of the fields changed, never values.
 * A single write commits with its entry through the platform's AuditTrail.update / create. The writes that are
 * already one transaction of several documents (the billing entries, Merge Patients and its undo, a bulk create or
 * edit) record their entries in that transaction (AuditTrail.updateIn / recordIn), so they commit or roll back
 * together. The seeders and importers write reference data as no user's change: they record nothing.
 */
import type { Connection } from 'mongoose';
import type { AuditAction } from '@onco/domain';
import {
  auditTrailOf,
  changeInputOf,
  currentActor,
  type AuditInput,
  type AuditTrail,
  type ChangeDescription,
} from '@onco/platform';
import type {
  AccountDoc,
  HospitalLocationDoc,
  MaintenanceWindowDoc,
  PatientDoc,
  PathologistDoc,
  PhysicianDoc,
} from '../models';

type Doc = Record<string, unknown>;

// a create's own bookkeeping (updatedOn, updatedBy and version are the platform's)
const CREATE_BOOKKEEPING = ['createdOn', 'createdBy'];

export const PATIENT_CHANGE: ChangeDescription<PatientDoc & Doc> = {
  type: 'patient',
  subject: (doc) => ({ id: String(doc._id), patientId: String(doc._id), accountIds: doc.accountIds ?? [] }),
  // a create's own bookkeeping, and the counter that serializes the patient's billing writes
  ignore: [...CREATE_BOOKKEEPING, 'billingsVersion'],
};

/** A reference record's action: `create` (nothing before), `delete` (soft-deleted by it), else `update`. */
const softDeleteAction = (before: Doc | null, after: Doc): AuditAction =>
  !before ? 'create' : after.deleted === true && before.deleted !== true ? 'delete' : 'update';

/** A record of reference data other than a patient: no patient, on behalf of `accountsOf` the record. */
function recordChange<D extends Doc & { _id: string }>(
  type: ChangeDescription<D>['type'],
  accountsOf: (doc: D) => Array<string | null | undefined>,
): ChangeDescription<D> {
  return {
    type,
    subject: (doc) => ({ id: String(doc._id), patientId: null, accountIds: accountsOf(doc) }),
    action: softDeleteAction,
    ignore: CREATE_BOOKKEEPING,
  };
}

/** An account: on its own behalf. */
export const ACCOUNT_CHANGE = recordChange<AccountDoc & Doc>('account', (doc) => [doc._id]);

/** A physician: on behalf of the accounts they work for. */
export const PHYSICIAN_CHANGE = recordChange<PhysicianDoc & Doc>('physician', (doc) => doc.accountIds ?? []);

/** A pathologist: on behalf of the accounts they read for. */
export const PATHOLOGIST_CHANGE = recordChange<PathologistDoc & Doc>(
  'pathologist',
  (doc) => doc.accountIds ?? [],
);

/** A hospital location: on behalf of its account. */
export const HOSPITAL_LOCATION_CHANGE = recordChange<HospitalLocationDoc & Doc>(
  'hospital-location',
  (doc) => [doc.account?.id],
);

/** A maintenance window belongs to no account: on behalf of the user's accounts (docs/audit.md `onBehalfOf`). */
export const MAINTENANCE_WINDOW_CHANGE = recordChange<MaintenanceWindowDoc & Doc>(
  'maintenance-window',
  () => currentActor().accountIds,
);

/** The audit trail of the connection the reference models live on (the process's one, as auditTrailOf(ctx)). */
export const referenceTrail = (conn: Connection): AuditTrail => auditTrailOf({ mongo: conn });

/** The entry of a change of a patient: its before and after, plus names the documents do not show (`billings.x`). */
export const patientChangeInput = (
  before: Doc | null,
  after: Doc,
  o: { changes?: string[]; extra?: string[] } = {},
): AuditInput => changeInputOf(PATIENT_CHANGE, before as never, after as PatientDoc & Doc, o);
