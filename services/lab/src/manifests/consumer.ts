import { isEventOf, runConsumer, type AnyEvent, type RunningConsumer } from '@onco/events';
import type { PlatformContext } from '@onco/platform';
import type { LabModels } from '../models';
import type { SampleManifestQueue } from './queue';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const LAB_SAMPLE_MANIFEST_GROUP = 'lab.sample-manifests';
/** How often the requeue sweep looks for manifests still UPLOADED (a job add lost to a Redis outage). */
export const REQUEUE_EVERY_MS = 60_000;

/**
 * `attachment.changed` -> the lab's manifest record and its job (docs/manifests.md "Flow"). An uploaded
 * SAMPLE_MANIFEST: the record (`_id` = attachment id) is upserted with `$setOnInsert` from the event (file,
 * account, uploader and the uploader's role and scope), then the job is added under the attachment id. A redelivered
 * event changes nothing and adds nothing (same record, same job id). A deleted one still UPLOADED is marked
 * deleted and its job, if it has not run, skips it.
 */
export async function handleAttachmentEvent(
  models: LabModels,
  queue: SampleManifestQueue,
  event: AnyEvent,
): Promise<'queued' | 'deleted' | 'ignored'> {
  if (!isEventOf(event, 'attachment')) return 'ignored';
  const d = event.data;
  if (d.type !== 'SAMPLE_MANIFEST') return 'ignored';
  if (d.change === 'deleted') {
    await models.SampleManifest.updateOne(
      { _id: d.attachmentId, status: 'UPLOADED' },
      { $set: { deleted: true, updatedOn: new Date(d.changedOn) } },
    ).exec();
    return 'deleted';
  }
  const at = new Date(d.changedOn);
  await models.SampleManifest.updateOne(
    { _id: d.attachmentId },
    {
      $setOnInsert: {
        name: d.name,
        blobId: d.blobId,
        sha256: d.sha256,
        size: d.size,
        account: { id: d.accountId, name: d.accountName },
        uploadedBy: d.uploadedBy,
        // absent from an event before schemaVersion 2: the apply's entries then name the role UNKNOWN
        uploaderRole: d.uploaderRole ?? null,
        uploaderScope: d.uploaderScope,
        deleted: false,
        archived: false,
        status: 'UPLOADED',
        rows: 0,
        created: 0,
        updated: 0,
        errors: [],
        errorCount: 0,
        missing: [],
        requisitions: [],
        processedOn: null,
        uploadedOn: at,
        createdOn: new Date(),
        updatedOn: new Date(),
        outbox: [],
      },
    },
    { upsert: true },
  ).exec();
  await queue.add({ attachmentId: d.attachmentId });
  return 'queued';
}

/** Start the consumer and the requeue sweep (only in processes that run workers). */
export async function startSampleManifestConsumer(
  ctx: PlatformContext,
  models: LabModels,
  queue: SampleManifestQueue,
): Promise<{ stop(): Promise<void> }> {
  const consumer: RunningConsumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: `${ctx.config.TOPIC_PREFIX}${LAB_SAMPLE_MANIFEST_GROUP}`,
    topics: ['attachment'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    handler: async (event) => {
      if ((await handleAttachmentEvent(models, queue, event)) === 'queued')
        ctx.logger.info({ attachmentId: event.subject }, 'sample manifest job added');
    },
  });
  const timer = setInterval(() => {
    queue
      .requeueWaiting()
      .catch((err) => ctx.logger.warn({ err: (err as Error).message }, 'manifest requeue failed'));
  }, REQUEUE_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await consumer.stop();
    },
  };
}
