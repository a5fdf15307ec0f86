import { isEventOf, runConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { RequisitionModels } from '../models';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const SAMPLE_MANIFEST_STATUS_GROUP = 'requisitions.sample-manifest-status';

/**
 * The lab's verdict on a SAMPLE_MANIFEST (`sample-manifest.processed`, docs/manifests.md) becomes the
 * attachment's status (spec 3 section 4.2): PROCESSED or ERROR, processedOn and errorDetails (the lines the
 * Box's "Sample Manifest Errors" modal shows). One conditional update on `status: UPLOADED`, so a redelivered
 * event, or one arriving after the attachment has its verdict, changes nothing.
 */
export async function applySampleManifestResult(
  models: RequisitionModels,
  event: AnyEvent,
): Promise<'applied' | 'ignored'> {
  if (!isEventOf(event, 'sample-manifest')) return 'ignored';
  const d = event.data;
  const processedOn = new Date(d.processedOn);
  const res = await models.Attachment.updateOne(
    { _id: d.attachmentId, type: 'SAMPLE_MANIFEST', status: 'UPLOADED' },
    {
      $set: {
        status: d.status,
        processedOn,
        errorDetails:
          d.status === 'ERROR' ? (d.errorDetails ?? 'The manifest could not be processed.') : null,
        updatedOn: processedOn,
        updatedBy: 'system',
      },
      $inc: { version: 1 },
    },
  ).exec();
  return res.modifiedCount ? 'applied' : 'ignored';
}

/** Start the consumer (only in processes that run workers). */
export function startSampleManifestStatusConsumer(
  ctx: PlatformContext,
  models: RequisitionModels,
): Promise<RunningConsumer> {
  return runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: `${ctx.config.TOPIC_PREFIX}${SAMPLE_MANIFEST_STATUS_GROUP}`,
    topics: ['sample-manifest'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event) => {
      if ((await applySampleManifestResult(models, event)) === 'applied')
        ctx.logger.info({ attachmentId: event.subject }, 'sample manifest status applied');
    },
  });
}
