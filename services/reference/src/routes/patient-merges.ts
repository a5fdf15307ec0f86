import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { dateOut, errorReplies, requireUser, typed, type SessionUser } from '@onco/platform';
import { PatientMergeService, sourceIdsOf } from '../patient-merges';
import { patientReply, presentPatient } from './patients';
import { PATIENT_PART_READ } from './shared';

const sourceQuery = z.object({
  /** the duplicates: sourceId=A&sourceId=B (or A,B) */
  sourceId: z.union([z.string().max(2000), z.array(z.string().max(200)).max(200)]).optional(),
});
const mergeBody = z.object({
  targetPatient: z.object({
    id: z.string().min(1).max(64),
    /** the primary patient's version read; a stale one is a 409 */
    version: z.number().int().min(0).optional(),
  }),
});
const mergeIdParams = z.object({ mergeId: z.string().min(1).max(64) });
const actorReply = z.object({ id: z.string(), name: z.string() });

export const patientMergeReply = z.object({
  id: z.string(),
  status: z.enum(['RUNNING', 'DONE', 'UNDOING', 'UNDONE']),
  targetId: z.string(),
  sourceIds: z.array(z.string()),
  sources: z.array(
    z.object({
      id: z.string(),
      firstName: z.string().nullish(),
      lastName: z.string().nullish(),
      patientNumber: z.string().nullish(),
    }),
  ),
  /** submitted requisitions to move (the preview's estimate until the requisitions service has counted them) */
  total: z.number(),
  /** moved so far (RUNNING), total (DONE), still to move back (UNDOING), 0 (UNDONE) */
  moved: z.number(),
  createdBy: actorReply,
  createdOn: dateOut,
  finishedOn: dateOut.nullable(),
  undoneBy: actorReply.nullable(),
  undoneOn: dateOut.nullable(),
  undoFinishedOn: dateOut.nullable(),
  undoable: z.boolean(),
  undoBlockedReason: z.string().nullable(),
});

const conflictReply = z.object({
  field: z.enum(['dateOfBirth', 'sex', 'mrn', 'firstName', 'lastName']),
  label: z.string(),
  target: z.string().nullable(),
  sources: z.array(z.object({ id: z.string(), value: z.string().nullable() })),
});
const previewReply = z.object({
  target: patientReply,
  sources: z.array(patientReply),
  conflicts: z.array(conflictReply),
  moves: z.object({ requisitions: z.number(), billingEntries: z.number() }),
});

/**
 * Merge Patients (spec 2 sections 2.6, 6 and 7 "POST mergePatients with query sourceId (list) and body
 * targetPatient"), in the portal area, with CAN_MERGE_PATIENTS; every patient must be in the user's data scope
 * (404 otherwise). See ../patient-merges.ts and docs/decisions.md "Patient merge".
 */
export async function patientMergeRoutes(app: FastifyInstance, { merges }: { merges: PatientMergeService }) {
  const r = typed(app);
  const tags = ['reference'];
  const permission = 'CAN_MERGE_PATIENTS' as const;

  r.post(
    '/patients/mergePatients/preview',
    {
      config: { permission },
      schema: {
        tags,
        summary:
          'Preview a merge (nothing written): the patients, the fields where a duplicate differs from the primary (date of birth, sex, MRN, names) and what would move',
        querystring: sourceQuery,
        body: mergeBody,
        response: { 200: previewReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const p = await merges.preview(user, sourceIdsOf(req.query.sourceId), req.body.targetPatient.id);
      const show = (d: any) => presentPatient(d, user as SessionUser);
      return { target: show(p.target), sources: p.sources.map(show), conflicts: p.conflicts, moves: p.moves };
    },
  );

  r.post(
    '/patients/mergePatients',
    {
      config: { permission },
      schema: {
        tags,
        summary:
          'Merge the duplicates (sourceId, repeated) into the primary (targetPatient): 202 with the merge, which runs in the background (poll GET /patients/merges/{mergeId}); 400 for a bad selection, 404 out of scope, 409 for a stale targetPatient.version',
        querystring: sourceQuery,
        body: mergeBody,
        response: { 202: patientMergeReply, ...errorReplies },
      },
    },
    async (req, reply) => {
      const user = requireUser(req);
      const { id, version } = req.body.targetPatient;
      const merge = await merges.merge(user, sourceIdsOf(req.query.sourceId), id, version);
      reply.status(202);
      return merge;
    },
  );

  r.get(
    '/patients/merges/:mergeId',
    {
      // the merge names the patients it joins: a read of the primary, naming the duplicates too
      config: {
        permission,
        audit: {
          record: 'patient',
          subject: (m: { targetId: string; sourceIds: string[] }) => ({
            id: m.targetId,
            patientId: m.targetId,
            patientIds: [m.targetId, ...m.sourceIds],
          }),
        },
      },
      schema: {
        tags,
        summary: 'A patient merge and its progress (moved of total), whether it can be undone and why not',
        params: mergeIdParams,
        response: { 200: patientMergeReply, ...errorReplies },
      },
    },
    async (req) => merges.get(requireUser(req), req.params.mergeId),
  );

  r.get(
    '/patients/:id/merges',
    {
      config: { permission, audit: PATIENT_PART_READ },
      schema: {
        tags,
        summary: 'The merges into a patient, newest first',
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: z.array(patientMergeReply), ...errorReplies },
      },
    },
    async (req) => merges.listFor(requireUser(req), req.params.id),
  );

  r.post(
    '/patients/merges/:mergeId/undo',
    {
      config: { permission },
      schema: {
        tags,
        summary:
          'Undo a finished merge: 202 with the merge (UNDOING), or 409 with the reason it cannot be undone (a new requisition or billing change on the primary, the primary edited, not DONE)',
        params: mergeIdParams,
        response: { 202: patientMergeReply, ...errorReplies },
      },
    },
    async (req, reply) => {
      const merge = await merges.undo(requireUser(req), req.params.mergeId);
      reply.status(202);
      return merge;
    },
  );
}
