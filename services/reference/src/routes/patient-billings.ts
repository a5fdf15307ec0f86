import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ClientSession } from 'mongoose';
import type { Permission } from '@onco/domain';
import {
  can,
  conflict,
  errorReplies,
  forbidden,
  idParams,
  inTransaction,
  notFound,
  requireUser,
  toApi,
  typed,
  type SessionUser,
} from '@onco/platform';
import { BILLING_LABELS, checkBilling, type BillingForm } from '../rules';
import { mergedPatientError, PATIENT_READERS, patientScope } from './patients';
import type { ReferenceModels } from '../models';
import { auditReply, fieldErrors, loadScoped, str, text, type RouteDeps } from './shared';

/**
 * A patient's saved billing entries (insurances): spec 1 section 7 "GET/PUT/POST patient billings by patient
 * id", spec 2 section 7 "Patient billings" (each write returns the updated list) and section 4 "Billing entry:
 * created, updated, marked default, deleted (soft delete with deleted true)".
 *
 * Who writes: the requisition's billing step saves insurances (CAN_CREATE_TRF, CAN_EDIT_TRF) and the patient
 * page's billing menu (VIEW_BILLING_ACTIONS; CAN_EDIT_BILLING for billing staff). Mark Default and Delete are
 * that menu's actions, so they need VIEW_BILLING_ACTIONS or CAN_EDIT_BILLING. The patient's data scope applies
 * to every call: a patient outside it is a 404.
 *
 * One default per patient: an invariant over several documents (the patient's entries), so every billing write
 * runs in a multi-document transaction (services/platform transaction.ts) that first increments the patient's
 * `billingsVersion`. Two billing writes of one patient therefore write the same document and conflict: one is
 * run again after the other committed, and sees its result (the first entry is the default, marking one clears
 * the others). Entries of different patients never wait for each other.
 */
export const BILLING_WRITERS: Permission[] = [
  'CAN_CREATE_TRF',
  'CAN_EDIT_TRF',
  'VIEW_BILLING_ACTIONS',
  'CAN_EDIT_BILLING',
];
const BILLING_MENU: Permission[] = ['VIEW_BILLING_ACTIONS', 'CAN_EDIT_BILLING'];

export const patientBillingReply = z.object({
  ...auditReply,
  patientId: z.string(),
  billingType: z.string(),
  preference: str,
  insuranceProvider: str,
  payorId: str,
  insuredName: str,
  insuredDob: str,
  policyNumber: str,
  groupNumber: str,
  canonicalPolicyNumber: str,
  canonicalGroupNumber: str,
  priorAuthorizationNumber: str,
  relationshipToPatient: str,
  patientStatus: str,
  dischargeDate: str,
  facilityTypeName: str,
  otherTypeName: str,
  /** the billing's own id, as the requisition's billing block names the saved insurance it came from */
  patientInsuranceId: z.string(),
  isDefault: z.boolean(),
});
const listOut = z.object({ content: z.array(patientBillingReply), totalElements: z.number() });

const fields = {
  billingType: text(32),
  preference: text(32),
  insuranceProvider: text(200),
  payorId: text(64),
  insuredName: text(200),
  insuredDob: text(10),
  policyNumber: text(64),
  groupNumber: text(64),
  priorAuthorizationNumber: text(64),
  relationshipToPatient: text(32),
  patientStatus: text(32),
  dischargeDate: text(10),
  facilityTypeName: text(200),
  otherTypeName: text(200),
};
const FIELD_NAMES = Object.keys(fields) as Array<keyof typeof fields>;

const createBody = z.object({ ...fields, isDefault: z.boolean().optional() });
/** PUT: the billing id, then any fields (those left out keep their value), isDefault: true, or deleted: true */
const updateBody = z.object({
  id: z.string().min(1).max(64),
  ...fields,
  isDefault: z.boolean().optional(),
  deleted: z.boolean().optional(),
  /** the version read; a stale one is a 409 */
  version: z.number().int().min(0).optional(),
});

const toReply = (d: Record<string, any>) => ({ ...toApi(d), patientInsuranceId: d._id });

/** A patient's billing entries: the list, the patient in scope and the writes in the patient's transaction. */
function billingStore(models: ReferenceModels) {
  const { PatientBilling, Patient } = models;
  return {
    list: async (patientId: string) => {
      const rows = await PatientBilling.find({ patientId, deleted: { $ne: true } })
        .sort({ isDefault: -1, updatedOn: -1 })
        .lean()
        .exec();
      return { content: rows.map((d) => toReply(d as any)), totalElements: rows.length };
    },
    /** the patient, within the user's scope (404 otherwise) */
    patientOf: (user: SessionUser, id: string) => loadScoped(Patient, id, patientScope(user)),
    /** a billing write of one patient: in a transaction that first writes the patient (see above) */
    billingWrite: <T>(patientId: string, fn: (session: ClientSession) => Promise<T>) =>
      inTransaction(PatientBilling.db, async (session) => {
        const p = await Patient.findOneAndUpdate(
          { _id: patientId },
          { $inc: { billingsVersion: 1 } },
          { session, projection: { userId: 1, mergedInto: 1 } },
        )
          .lean()
          .exec();
        // a merged duplicate's entries moved to its primary (Merge Patients): it takes no billing writes
        if (p?.mergedInto) throw mergedPatientError(p);
        return fn(session);
      }),
    /** every other default of the patient stops being one (one bulk update) */
    clearOtherDefaults: (patientId: string, keep: string, userId: string, session: ClientSession) =>
      PatientBilling.updateMany(
        { patientId, isDefault: true, _id: { $ne: keep } },
        { $set: { isDefault: false, updatedOn: new Date(), updatedBy: userId }, $inc: { version: 1 } },
        { session },
      ).exec(),
  };
}
type BillingStore = ReturnType<typeof billingStore>;

/** POST: a new entry, checked by its billing type; the patient's first one is the default. */
async function addBilling(
  { PatientBilling }: ReferenceModels,
  store: BillingStore,
  user: SessionUser,
  patientId: string,
  b: z.infer<typeof createBody>,
) {
  if (b.isDefault && !BILLING_MENU.some((p) => can(user, p))) throw forbidden();
  const checked = checkBilling(b, new Date());
  if ('errors' in checked) throw fieldErrors(checked.errors, BILLING_LABELS);
  await store.billingWrite(patientId, async (session) => {
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
    if (isDefault) await store.clearOtherDefaults(patientId, String(created._id), user.id, session);
  });
}

/** PUT: the entry's fields (checked again as a whole), Mark Default or a soft delete. */
async function updateBilling(
  { PatientBilling }: ReferenceModels,
  store: BillingStore,
  user: SessionUser,
  patientId: string,
  b: z.infer<typeof updateBody>,
) {
  await store.billingWrite(patientId, async (session) => {
    const current = await PatientBilling.findOne({
      _id: b.id,
      patientId,
      deleted: { $ne: true },
    })
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
      const res = await PatientBilling.updateOne(
        filter,
        { $set: { deleted: true, isDefault: false, ...now }, $inc: { version: 1 } },
        { session },
      ).exec();
      if (!res.matchedCount) throw conflict();
      return;
    }
    const merged: BillingForm = {};
    for (const f of FIELD_NAMES)
      merged[f] = b[f] !== undefined ? b[f] : ((current as Record<string, any>)[f] ?? null);
    const checked = checkBilling(merged, new Date());
    if ('errors' in checked) throw fieldErrors(checked.errors, BILLING_LABELS);
    const isDefault = b.isDefault ?? current.isDefault;
    const res = await PatientBilling.updateOne(
      filter,
      { $set: { ...checked.value, isDefault, ...now }, $inc: { version: 1 } },
      { session },
    ).exec();
    if (!res.matchedCount) throw conflict();
    if (isDefault) await store.clearOtherDefaults(patientId, current._id, user.id, session);
  });
}

/** Patient billing routes, mounted in the portal area under /patients/:id/billings. */
export async function patientBillingRoutes(app: FastifyInstance, { models }: RouteDeps) {
  const r = typed(app);
  const store = billingStore(models);

  r.get(
    '/patients/:id/billings',
    {
      config: { permission: PATIENT_READERS },
      schema: {
        tags: ['reference'],
        summary: "A patient's saved billing entries (the default first, then newest first)",
        params: idParams,
        response: { 200: listOut, ...errorReplies },
      },
    },
    async (req) => {
      const patient = await store.patientOf(requireUser(req), req.params.id);
      return store.list(patient.id);
    },
  );

  r.post(
    '/patients/:id/billings',
    {
      config: { permission: BILLING_WRITERS },
      schema: {
        tags: ['reference'],
        summary: 'Add a billing entry to a patient (checked by its billing type); returns the updated list',
        params: idParams,
        body: createBody,
        response: { 201: listOut, ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const patient = await store.patientOf(user, req.params.id);
      await addBilling(models, store, user, patient.id, req.body);
      reply.status(201);
      return store.list(patient.id);
    },
  );

  r.put(
    '/patients/:id/billings',
    {
      config: { permission: BILLING_WRITERS },
      schema: {
        tags: ['reference'],
        summary:
          'Update a billing entry (body has its id); isDefault: true marks it the default, deleted: true removes it (soft). Returns the updated list',
        params: idParams,
        body: updateBody,
        response: { 200: listOut, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const patient = await store.patientOf(user, req.params.id);
      await updateBilling(models, store, user, patient.id, req.body);
      return store.list(patient.id);
    },
  );
}
