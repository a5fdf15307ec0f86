import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MSG, SPECIMEN_TYPES } from '@onco/domain';
import {
  actorOf,
  badRequest,
  can,
  errorBody,
  errorReplies,
  forbidden,
  requireUser,
  tooLarge,
  typed,
  requireMultipartUpload,
  failAtLimit,
} from '@onco/platform';
import type { LabModels } from '../models';
import { CONTENT_TYPES, templateFile } from './files';
import { formatOfName, ManifestFileError, MANIFEST_MAX_BYTES, readBlob } from './manifest-file';
import { parseManifestFile, prewarmParseThread } from './parse';
import { planManifest } from './plan';
import { filePlan } from './plan-model';
import { PERMISSION, rowError } from './routes-shared';

/** dry-run `samples` entries returned at most (the counts cover every row) */
export const CHECK_SAMPLES_MAX = 1_000;

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

/** The template and the dry run: what an uploader needs before a manifest is uploaded (routes.ts). */
export function registerManifestCheckRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; reviewAccountId?: string | null },
) {
  const r = typed(app);
  const { models } = opts;

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
      requireMultipartUpload(req, MANIFEST_MAX_BYTES);
      prewarmParseThread(); // starts while the file arrives
      let file: MultipartFile | undefined;
      let buf: Buffer | null = null;
      try {
        file = await req.file();
        if (!file || file.fieldname !== 'file')
          throw badRequest('Send the manifest in the part named "file"', { field: 'file' });
        buf = await readBlob(failAtLimit(file.file) as never, MANIFEST_MAX_BYTES);
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
}
