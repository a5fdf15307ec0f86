import type { RequisitionModels } from '../models';
import { defineEventConsumer } from '../projections/event-consumer';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const SAMPLE_MANIFEST_STATUS_GROUP = 'requisitions.sample-manifest-status';

const sampleManifestStatus = defineEventConsumer({
  group: SAMPLE_MANIFEST_STATUS_GROUP,
  family: 'sample-manifest',
  apply: async (models: RequisitionModels, { data: d }) => {
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
  },
  log: { message: 'sample manifest status applied', fields: (event) => ({ attachmentId: event.subject }) },
});

/**
 * The lab's verdict on a SAMPLE_MANIFEST (`sample-manifest.processed`, docs/manifests.md) becomes the
 * attachment's status (spec 3 section 4.2): PROCESSED or ERROR, processedOn and errorDetails (the lines the
 * Box's "Sample Manifest Errors" modal shows). One conditional update on `status: UPLOADED`, so a redelivered
 * event, or one arriving after the attachment has its verdict, changes nothing.
 */
export const applySampleManifestResult = sampleManifestStatus.apply;

/** Start the consumer (only in processes that run workers). */
export const startSampleManifestStatusConsumer = sampleManifestStatus.start;
