import type { ClientSession } from 'mongoose';
import type { Permission } from '@onco/domain';
import {
  BOOKKEEPING_FIELDS,
  can,
  changedPaths,
  conflict,
  currentActor,
  forbidden,
  inTransaction,
  notFound,
  type SessionUser,
} from '@onco/platform';
import type { PatientBillingDoc } from '../models';
import { BILLING_LABELS, checkBilling, type BillingForm } from '../rules';
import { mergedPatientError, patientScope } from '../routes/patients/resource';
import { fieldErrors, loadScoped } from '../routes/shared';
import { patientChangeInput, referenceTrail } from './audit';
import type { ReferenceDeps } from './deps';

/**
 * A patient's saved billing entries (insurances): spec 1 section 7 "GET/PUT/POST patient billings by patient
 * id", spec 2 section 7 "Patient billings" (each write returns the updated list) and section 4 "Billing entry:
 * created, updated, marked default, deleted (soft delete with deleted true)". The patient's data scope applies to
 * every call: a patient outside it is a 404. Mark Default and Delete are the patient page's billing menu's
 * actions, so they need VIEW_BILLING_ACTIONS or CAN_EDIT_BILLING.
 *
 * One default per patient: an invariant over several documents (the patient's entries), so every billing write
 * runs in a multi-document transaction (services/platform transaction.ts) that first increments the patient's
 * `billingsVersion`. Two billing writes of one patient therefore write the same document and conflict: one is
 * run again after the other committed, and sees its result (the first entry is the default, marking one clears
 * the others). Entries of different patients never wait for each other.
 *
 * Each write leaves one audit entry on the patient in the same transaction (docs/audit.md "Changes"): an
 * `update` of the patient whose `changes` name the entry's fields as `billings.<field>` (never values).
 */
export const BILLING_MENU: Permission[] = ['VIEW_BILLING_ACTIONS', 'CAN_EDIT_BILLING'];

const BILLING_FIELDS: Record<keyof BillingForm, true> = {
  billingType: true,
  preference: true,
  insuranceProvider: true,
  payorId: true,
  insuredName: true,
  insuredDob: true,
  policyNumber: true,
  groupNumber: true,
  priorAuthorizationNumber: true,
  relationshipToPatient: true,
  patientStatus: true,
  dischargeDate: true,
  facilityTypeName: true,
  otherTypeName: true,
};
const FIELD_NAMES = Object.keys(BILLING_FIELDS) as Array<keyof BillingForm>;

/** A new entry: its fields, and whether it is to be the default (the billing menu's). */
export type NewPatientBilling = BillingForm & { isDefault?: boolean };
/** A change of one entry (its id): any fields (those left out keep their value), isDefault, or deleted: true. */
export type PatientBillingChange = BillingForm & {
  id: string;
  isDefault?: boolean;
  deleted?: boolean;
  /** the version read; a stale one is a 409 */
  version?: number;
};

/** The patient's entries, the default first, then newest first. */
const billingsOf = async ({ models }: ReferenceDeps, patientId: string): Promise<PatientBillingDoc[]> =>
  (await models.PatientBilling.find({ patientId, deleted: { $ne: true } })
    .sort({ isDefault: -1, updatedOn: -1 })
    .lean()
    .exec()) as PatientBillingDoc[];

/** The patient's id, within the user's scope (404 otherwise). */
const patientInScope = async ({ models }: ReferenceDeps, user: SessionUser, id: string): Promise<string> =>
  (await loadScoped(models.Patient, id, patientScope(user))).id;

/** What a billing write did to the patient's entries: the entry before (null: added) and after, other defaults cleared. */
interface BillingChange {
  before: object | null;
  after: object;
  clearedOthers: boolean;
}

/** The entry's fields a billing write changed, as `billings.<field>`; beside the bookkeeping, whose it is. */
const billingPaths = (c: BillingChange): string[] => [
  ...changedPaths(
    { billings: c.before },
    { billings: c.after },
    {
      ignore: [...BOOKKEEPING_FIELDS, 'createdOn', 'createdBy', 'patientId'],
    },
  ),
  ...(c.clearedOthers ? ['billings.isDefault'] : []),
];

/**
 * A billing write of one patient: in a transaction that first writes the patient (see above), and records the
 * change's audit entry in it (the patient's accounts on its behalf).
 */
const billingWrite = async (
  { models }: ReferenceDeps,
  patientId: string,
  fn: (session: ClientSession) => Promise<BillingChange>,
) => {
  const trail = referenceTrail(models.Patient.db);
  const actor = currentActor();
  await inTransaction(models.PatientBilling.db, async (session) => {
    const p = await models.Patient.findOneAndUpdate(
      { _id: patientId },
      { $inc: { billingsVersion: 1 } },
      { session, projection: { userId: 1, mergedInto: 1, accountIds: 1 } },
    )
      .lean()
      .exec();
    // a merged duplicate's entries moved to its primary (Merge Patients): it takes no billing writes
    if (p?.mergedInto) throw mergedPatientError(p);
    const change = await fn(session);
    const patient = { _id: patientId, accountIds: p?.accountIds ?? [] };
    await trail.recordIn(
      session,
      [patientChangeInput(patient, patient, { changes: billingPaths(change) })],
      actor,
    );
  });
  trail.recorded();
};

/** Every other default of the patient stops being one (one bulk update). */
const clearOtherDefaults = (
  { models }: ReferenceDeps,
  patientId: string,
  keep: string,
  userId: string,
  session: ClientSession,
) =>
  models.PatientBilling.updateMany(
    { patientId, isDefault: true, _id: { $ne: keep } },
    { $set: { isDefault: false, updatedOn: new Date(), updatedBy: userId }, $inc: { version: 1 } },
    { session },
  ).exec();

/** A patient's saved billing entries (the patient in the user's scope, else 404). */
export async function listPatientBillings(deps: ReferenceDeps, user: SessionUser, patientId: string) {
  return billingsOf(deps, await patientInScope(deps, user, patientId));
}

/** Add a billing entry, checked by its billing type; the patient's first one is the default. The updated list. */
export async function addPatientBilling(
  deps: ReferenceDeps,
  user: SessionUser,
  id: string,
  b: NewPatientBilling,
): Promise<PatientBillingDoc[]> {
  const { PatientBilling } = deps.models;
  const patientId = await patientInScope(deps, user, id);
  if (b.isDefault && !BILLING_MENU.some((p) => can(user, p))) throw forbidden();
  const checked = checkBilling(b, new Date());
  if ('errors' in checked) throw fieldErrors(checked.errors, BILLING_LABELS);
  await billingWrite(deps, patientId, async (session) => {
    // the first entry of a patient becomes the default
    const first =
      (await PatientBilling.countDocuments({ patientId, deleted: { $ne: true } })
        .session(session)
        .exec()) === 0;
    const isDefault = first || !!b.isDefault;
    const [created] = await PatientBilling.create(
      [
        {
          ...(checked.value as Record<string, unknown>),
          patientId,
          isDefault,
          createdBy: user.id,
          updatedBy: user.id,
        },
      ],
      { session },
    );
    const cleared = isDefault
      ? await clearOtherDefaults(deps, patientId, String(created._id), user.id, session)
      : null;
    return { before: null, after: created.toObject(), clearedOthers: !!cleared?.modifiedCount };
  });
  return billingsOf(deps, patientId);
}

/** Update an entry's fields (checked again as a whole), Mark Default or a soft delete. The updated list. */
export async function updatePatientBilling(
  deps: ReferenceDeps,
  user: SessionUser,
  id: string,
  b: PatientBillingChange,
): Promise<PatientBillingDoc[]> {
  const { PatientBilling } = deps.models;
  const patientId = await patientInScope(deps, user, id);
  await billingWrite(deps, patientId, async (session) => {
    const current = await PatientBilling.findOne({ _id: b.id, patientId, deleted: { $ne: true } })
      .session(session)
      .lean()
      .exec();
    if (!current) throw notFound();
    if (b.version !== undefined && b.version !== current.version) throw conflict();
    // Mark Default and Delete are the billing menu's actions
    const menuAction = b.deleted === true || (b.isDefault !== undefined && b.isDefault !== current.isDefault);
    if (menuAction && !BILLING_MENU.some((p) => can(user, p))) throw forbidden();
    const now = { updatedOn: new Date(), updatedBy: user.id };
    // conditional on the version read (the transaction already keeps other billing writes of the patient out)
    const filter = { _id: current._id, version: current.version };
    if (b.deleted === true) {
      // a soft delete; a deleted default leaves the patient without one until another is marked
      const deleted = await PatientBilling.findOneAndUpdate(
        filter,
        { $set: { deleted: true, isDefault: false, ...now }, $inc: { version: 1 } },
        { session, returnDocument: 'after' },
      )
        .lean()
        .exec();
      if (!deleted) throw conflict();
      return { before: current, after: deleted, clearedOthers: false };
    }
    const merged: BillingForm = {};
    for (const f of FIELD_NAMES)
      merged[f] = b[f] !== undefined ? b[f] : ((current as Record<string, any>)[f] ?? null);
    const checked = checkBilling(merged, new Date());
    if ('errors' in checked) throw fieldErrors(checked.errors, BILLING_LABELS);
    const isDefault = b.isDefault ?? current.isDefault;
    const updated = await PatientBilling.findOneAndUpdate(
      filter,
      { $set: { ...checked.value, isDefault, ...now }, $inc: { version: 1 } },
      { session, returnDocument: 'after' },
    )
      .lean()
      .exec();
    if (!updated) throw conflict();
    const cleared = isDefault
      ? await clearOtherDefaults(deps, patientId, current._id, user.id, session)
      : null;
    return { before: current, after: updated, clearedOthers: !!cleared?.modifiedCount };
  });
  return billingsOf(deps, patientId);
}
