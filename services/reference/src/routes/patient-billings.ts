import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Permission } from '@onco/domain';
import { errorReplies, idParams, requireUser, toApi, typed } from '@onco/platform';
import type { PatientBillingDoc } from '../models';
import type { BillingForm } from '../rules';
import { addPatientBilling, listPatientBillings, updatePatientBilling } from '../use-cases';
import { PATIENT_READERS } from './patients';
import { auditReply, PATIENT_PART_READ, str, text, type RouteDeps } from './shared';

/**
 * A patient's saved billing entries (insurances): spec 1 section 7 "GET/PUT/POST patient billings by patient
 * id", spec 2 section 7 "Patient billings" (each write returns the updated list). The rules, the data scope and
 * the one-default transaction are the use cases' (../use-cases/patient-billings.ts).
 *
 * Who writes: the requisition's billing step saves insurances (CAN_CREATE_TRF, CAN_EDIT_TRF) and the patient
 * page's billing menu (VIEW_BILLING_ACTIONS; CAN_EDIT_BILLING for billing staff). Mark Default and Delete are
 * that menu's actions, so they need VIEW_BILLING_ACTIONS or CAN_EDIT_BILLING (checked by the use cases on the
 * entry read).
 */
export const BILLING_WRITERS: Permission[] = [
  'CAN_CREATE_TRF',
  'CAN_EDIT_TRF',
  'VIEW_BILLING_ACTIONS',
  'CAN_EDIT_BILLING',
];

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
} satisfies Record<keyof BillingForm, z.ZodType>;

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
/** The reply of every call: the patient's entries, the default first, then newest first. */
const listOf = (rows: PatientBillingDoc[]) => ({
  content: rows.map((d) => toReply(d as Record<string, any>)),
  totalElements: rows.length,
});

/** Patient billing routes, mounted in the portal area under /patients/:id/billings. */
export async function patientBillingRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = typed(app);

  r.get(
    '/patients/:id/billings',
    {
      config: { permission: PATIENT_READERS, audit: PATIENT_PART_READ },
      schema: {
        tags: ['reference'],
        summary: "A patient's saved billing entries (the default first, then newest first)",
        params: idParams,
        response: { 200: listOut, ...errorReplies },
      },
    },
    async (req) => listOf(await listPatientBillings(deps, requireUser(req), req.params.id)),
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
      const rows = await addPatientBilling(deps, requireUser(req), req.params.id, req.body);
      reply.status(201);
      return listOf(rows);
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
    async (req) => listOf(await updatePatientBilling(deps, requireUser(req), req.params.id, req.body)),
  );
}
