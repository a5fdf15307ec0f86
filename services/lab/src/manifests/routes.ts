import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MSG, SPECIMEN_TYPES } from '@onco/domain';
import {
  actorOf,
  badRequest,
  can,
  conflict,
  dateOut,
  errorBody,
  errorReplies,
  forbidden,
  idParams,
  notFound,
  requireUser,
  tooLarge,
  typed,
  type PlatformContext,
  type SessionUser,
} from '@onco/platform';
import type { LabModels, SampleManifestDoc } from '../models';
import { CONTENT_TYPES, errorFile, templateFile } from './files';
import { ManifestFileError, formatOfName, parseManifestFile, prewarmParseThread } from './parse';
import { filePlan, planManifest } from './plan';
import { MANIFEST_MAX_BYTES, readBlob, type ManifestJobProgress, type SampleManifestQueue } from './queue';

/**
 * Sample manifest routes, portal area (/portal/api/v1; docs/manifests.md "API"). Every route needs VIEW_BOX_PAGE
 * (the Attachment Box); the dry run also VIEW_SAMPLE_ACTIONS (the permission of the Samples tab's writes), and
 * so does applying a manifest (checked by the worker on the uploader). A manifest outside the user's data scope
 * (its account is not theirs, and they did not upload it) is a 404.
 */
const PERMISSION = 'VIEW_BOX_PAGE' as const;
/** dry-run `samples` entries returned at most (the counts cover every row) */
export const CHECK_SAMPLES_MAX = 1_000;

const rowError = z.object({ row: z.number().int(), column: z.string().nullable(), message: z.string() });
const checkReply = z.object({
  rows: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  refused: z.number().int().describe('rows with at least one error'),
  errorCount: z.number().int(),
  errors: z.array(rowError).describe('row 0 is the file as a whole, row 1 the header'),
  samples: z
    .array(
      z.object({
        row: z.number().int(),
        action: z.enum(['create', 'update']),
        testOrderFormId: z.string(),
        testRequisitionId: z.string().nullable(),
        name: z.string(),
        type: z.enum(SPECIMEN_TYPES),
      }),
    )
    .describe(`the samples the valid rows would create or update (the first ${CHECK_SAMPLES_MAX})`),
});
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

const visible = (user: SessionUser, m: SampleManifestDoc) =>
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

export async function sampleManifestRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; reviewAccountId?: string | null; queue?: SampleManifestQueue['queue'] },
) {
  const r = typed(app);
  const { models } = opts;
  const ctx: PlatformContext = app.platform;
  await app.register(multipart, {
    limits: { fileSize: MANIFEST_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  async function findVisible(user: SessionUser, id: string) {
    const m = await models.SampleManifest.findById(id, { outbox: 0 }).lean<SampleManifestDoc>().exec();
    if (!m || !visible(user, m)) throw notFound('Sample manifest not found');
    return m;
  }

  r.get(
    '/sampleManifests/template',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sample manifests'],
        summary: 'The sample manifest template (header row; the .xlsx adds an Instructions sheet)',
        querystring: z.object({ format: z.enum(['csv', 'xlsx']).default('xlsx') }),
        response: { 200: z.unknown().describe('The template file, as an attachment'), ...errorReplies },
      },
    },
    async (req, reply) => {
      const format = req.query.format;
      return reply
        .header('Content-Type', CONTENT_TYPES[format])
        .header('Content-Disposition', `attachment; filename="sample-manifest-template.${format}"`)
        .header('Cache-Control', 'private, no-cache')
        .send(templateFile(format));
    },
  );

  r.post(
    '/sampleManifests/check',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['sample manifests'],
        summary: 'Dry run: read and check a manifest (multipart `file`) without applying anything',
        description:
          "The same reading and the same checks as the worker, in the caller's data scope; nothing is written. " +
          'Needs VIEW_SAMPLE_ACTIONS too. A file that cannot be read is a 200 with one error on row 0.',
        consumes: ['multipart/form-data'],
        response: { 200: checkReply, 413: errorBody, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!can(user, 'VIEW_SAMPLE_ACTIONS')) throw forbidden();
      if (!req.isMultipart()) throw badRequest('Expected a multipart/form-data upload with a file');
      prewarmParseThread(); // starts while the file arrives
      let file: MultipartFile | undefined;
      let buf: Buffer | null = null;
      try {
        file = await req.file();
        if (!file || file.fieldname !== 'file')
          throw badRequest('Send the manifest in the part named "file"', { field: 'file' });
        buf = await readBlob(file.file as never, MANIFEST_MAX_BYTES);
        if (file.file.truncated) throw tooLarge(MSG.attachmentTooLarge);
      } catch (err) {
        const e = err as { code?: string; statusCode?: number };
        if (err instanceof ManifestFileError || e?.code === 'FST_REQ_FILE_TOO_LARGE' || e?.statusCode === 413)
          throw tooLarge(MSG.attachmentTooLarge);
        throw err;
      }
      const format = formatOfName(file.filename ?? '');
      if (!format)
        throw badRequest('A sample manifest must be a .xlsx, .xls or .csv file.', { field: 'file' });
      let plan;
      try {
        const parsed = await parseManifestFile(buf, format);
        plan = await planManifest(models, { by: actorOf(user), scope: user }, parsed, {
          now: new Date(),
          reviewAccountId: opts.reviewAccountId ?? null,
          dryRun: true,
          samplesMax: CHECK_SAMPLES_MAX,
        });
      } catch (err) {
        if (!(err instanceof ManifestFileError)) throw err;
        plan = filePlan([{ row: 0, column: null, message: err.message }]);
      }
      return {
        rows: plan.rows,
        create: plan.creates.length,
        update: plan.updates.length,
        refused: plan.refused,
        errorCount: plan.errorCount,
        errors: plan.errors,
        samples: plan.samples,
      };
    },
  );

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
