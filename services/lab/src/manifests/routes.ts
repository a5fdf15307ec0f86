import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { LabModels } from '../models';
import { registerManifestCheckRoutes } from './check-routes';
import { backfillManifestArchived, registerManifestListRoutes } from './list-routes';
import { MANIFEST_MAX_BYTES } from './manifest-file';
import type { SampleManifestQueue } from './queue';
import { registerManifestResultRoutes } from './result-routes';

/**
 * Sample manifest routes, portal area (/portal/api/v1; docs/manifests.md "API"). Every route needs VIEW_BOX_PAGE
 * (the Attachment Box); the dry run also VIEW_SAMPLE_ACTIONS (the permission of the Samples tab's writes), and
 * so does applying a manifest (checked by the worker on the uploader). A manifest outside the user's data scope
 * (its account is not theirs, and they did not upload it) is a 404. The list (list-routes.ts) is also for the
 * Samples tab of an order (VIEW_ORDER_PAGE) and shows a manifest that changed samples of a requisition in the
 * user's scope.
 */
export async function sampleManifestRoutes(
  app: FastifyInstance,
  opts: { models: LabModels; reviewAccountId?: string | null; queue?: SampleManifestQueue['queue'] },
) {
  await app.register(multipart, {
    limits: { fileSize: MANIFEST_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
    throwFileSizeLimit: true,
  });

  await backfillManifestArchived(opts.models);
  registerManifestCheckRoutes(app, opts);
  registerManifestResultRoutes(app, opts);
  registerManifestListRoutes(app, opts);
}
