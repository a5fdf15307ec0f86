/**
 * What the requisitions module's PHI routes tell the audit trail (docs/audit.md "Reads"): the record, its patient
 * and its account, from the reply or from the requisition.
 */
import type { FastifyRequest } from 'fastify';
import { auditSubject, type AuditRouteConfig } from '@onco/platform';
import type { RequisitionModels } from '../models';

interface RequisitionLike {
  id?: string;
  _id?: string;
  patient?: { id?: string | null } | null;
  account?: { id?: string | null } | null;
}

/** The requisition a reply or a document is: its id, patient and account. */
export const requisitionSubject = (r: RequisitionLike) => ({
  id: r.id ?? r._id ?? null,
  patientId: r.patient?.id ?? null,
  accountIds: [r.account?.id],
});

/** GET testOrderForms/{id} (portal and oms): the requisition in the reply. */
export const REQUISITION_READ: AuditRouteConfig = { record: 'requisition', subject: requisitionSubject };

/** The projection a route reads besides what it needs, so the audit entry can name the patient and account. */
export const AUDIT_PROJECTION = { 'patient.id': 1, 'account.id': 1 } as const;

/** Tell the audit trail which requisition (patient, account) a reply is about. */
export function auditRequisition(req: FastifyRequest, doc: RequisitionLike, id?: string) {
  const s = requisitionSubject(doc);
  auditSubject(req, { ...s, id: id ?? s.id });
}

/** The patient and account of a requisition by id (a file attached to it), for an audit entry. */
export async function requisitionOf(models: RequisitionModels, id: string | null | undefined) {
  if (!id) return null;
  return models.Requisition.findById(id, AUDIT_PROJECTION).lean<RequisitionLike>().exec();
}
