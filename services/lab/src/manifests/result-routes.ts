import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  conflict,
  dateOut,
  errorReplies,
  idParams,
  notFound,
  requireUser,
  typed,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import type { LabModels, SampleManifestDoc } from '../models';
import { CONTENT_TYPES, errorFile } from './files';
import { formatOfName, ManifestFileError, readBlob } from './manifest-file';
import { parseManifestFile } from './parse';
import type { ManifestJobProgress } from './process-manifest';
import type { SampleManifestQueue } from './queue';
import { PERMISSION, rowError } from './routes-shared';

const manifestReply = z.object({
  attachmentId: z.string(),
  name: z.string(),
  status: z.enum(['UPLOADED', 'PROCESSED', 'ERROR']),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(rowError),
  missing: z.array(
    z.object({
      testOrderFormId: z.string(),
      testRequisitionId: z.string().nullable(),
      expected: z.array(z.string()).describe('the sample kinds the requisition is expected to have'),
      found: z.array(z.string()).describe('the kinds it has'),
    }),
  ),
  processedOn: dateOut.nullable(),
  progress: z
    .object({
      state: z
        .enum(['QUEUED', 'PROCESSING', 'RETRYING'])
        .describe(
          'QUEUED: waiting for a worker; RETRYING: an attempt failed, the next waits for its backoff',
        ),
      phase: z.enum(['READING', 'PARSING', 'CHECKING', 'APPLYING']).nullable(),
      done: z.number().int().describe('APPLYING: new samples written so far (in the transaction)'),
      total: z.number().int().describe('CHECKING: rows to check; APPLYING: new samples to write'),
    })
    .nullable()
    .describe(
      "while UPLOADED, where the manifest's job is (null once it has its verdict, or no job is known)",
    ),
});

/** Whether `user` may read the whole manifest: their account's, or their upload (or they see every account). */
export const manifestVisible = (user: SessionUser, m: SampleManifestDoc) =>
  user.allAccounts ||
  (m.account?.id != null && user.accountIds.includes(m.account.id)) ||
  (m.uploadedBy?.id != null && m.uploadedBy.id === user.id);

/** A manifest job's state and progress, as GET /sampleManifests/{id} shows it (null: no job to speak of). */
export async function manifestProgress(
  queue: SampleManifestQueue['queue'],
  attachmentId: string,
): Promise<z.infer<typeof manifestReply>['progress']> {
  const job = await queue.getJob(attachmentId);
  if (!job) return null;
  const state = await job.getState();
  const p = (typeof job.progress === 'object' ? job.progress : null) as Partial<ManifestJobProgress> | null;
  const at = {
    phase: p?.phase ?? null,
    done: Number.isInteger(p?.done) ? p!.done! : 0,
    total: Number.isInteger(p?.total) ? p!.total! : 0,
  };
  if (state === 'active') return { state: 'PROCESSING', ...at };
  if (state === 'delayed') return { state: 'RETRYING', ...at };
  if (state === 'waiting' || state === 'prioritized' || state === 'waiting-children')
    return { state: 'QUEUED', phase: null, done: 0, total: 0 };
  return null; // completed or failed: the verdict is on its way (or a person must look at the failed job)
}

/** A manifest's result and its error file (routes.ts); a manifest outside the user's data scope is a 404. */
export function registerManifestResultRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; queue?: SampleManifestQueue['queue'] },
) {
  const r = typed(app);
  const { models } = opts;
  const ctx: PlatformContext = app.platform;

  async function findVisible(user: SessionUser, id: string) {
    const m = await models.SampleManifest.findById(id, { outbox: 0 }).lean<SampleManifestDoc>().exec();
    if (!m || !manifestVisible(user, m)) throw notFound('Sample manifest not found');
    return m;
  }

  r.get(
    '/sampleManifests/:id',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sample manifests'],
        summary: "A manifest's processing result: status, counts, row errors and the reconciliation",
        description:
          'UPLOADED until the worker has its verdict; 404 for an unknown manifest, one outside the data scope, ' +
          'and for the moment between the upload and the lab receiving its event (normally under a second).',
        params: idParams,
        response: { 200: manifestReply, ...errorReplies },
      },
    },
    async (req) => {
      const m = await findVisible(requireUser(req), req.params.id);
      return {
        attachmentId: m._id,
        name: m.name,
        status: m.status,
        rows: m.rows,
        created: m.created,
        updated: m.updated,
        errorCount: m.errorCount,
        errors: (m.errors ?? []).map((e) => ({ row: e.row, column: e.column ?? null, message: e.message })),
        missing: (m.missing ?? []).map((x) => ({
          testOrderFormId: x.testOrderFormId,
          testRequisitionId: x.testRequisitionId ?? null,
          expected: x.expected,
          found: x.found,
        })),
        processedOn: m.processedOn ?? null,
        progress: m.status === 'UPLOADED' && opts.queue ? await manifestProgress(opts.queue, m._id) : null,
      };
    },
  );

  r.get(
    '/sampleManifests/:id/errors',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sample manifests'],
        summary: "The error file: the original rows with an added Error column, in the upload's format",
        description: 'Only for a manifest with status ERROR whose file can be read (409 otherwise).',
        params: idParams,
        response: { 200: z.unknown().describe('The error file, as an attachment'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const m = await findVisible(requireUser(req), req.params.id);
      if (m.status !== 'ERROR') throw conflict('Only a manifest with errors has an error file.');
      const format = formatOfName(m.name);
      if (!format || !m.blobId) throw conflict('The file of this manifest cannot be read.');
      let rows: string[][];
      try {
        rows = (await parseManifestFile(await readBlob(await ctx.blobs.get(m.blobId)), format)).rows;
      } catch (err) {
        if (err instanceof ManifestFileError)
          throw conflict(`The file of this manifest cannot be read: ${err.message}`);
        throw err;
      }
      const base = m.name.replace(/\.(xlsx|xls|csv)$/i, '');
      const name = `${base} - errors.${format}`;
      const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      return reply
        .header('Content-Type', CONTENT_TYPES[format])
        .header(
          'Content-Disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .header('Cache-Control', 'private, no-cache')
        .send(errorFile(rows, m.errors ?? [], format));
    },
  );
}
