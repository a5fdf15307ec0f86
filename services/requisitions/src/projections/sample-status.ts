import { SAMPLE_STATUSES, type SampleStatus } from '@onco/domain';
import type { RequisitionModels } from '../models';
import { defineEventConsumer } from './event-consumer';
import { setListEntry } from './list-entry';

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const SAMPLE_STATUS_PROJECTION_GROUP = 'requisitions.sample-status';

/** One sample as the requisition summarises it (field `samples` of test_order_forms). */
export interface SampleSummaryEntry {
  id: string;
  type: string;
  status: SampleStatus | null;
  changedOn: Date;
}

/**
 * `samples` and `samplesVersion` are this projection's fields on the requisition (declared in
 * models/requisition.ts); the requisition's own writes never touch them.
 */
const LOOSE = {} as const;

/** The sample statuses of a requisition: the distinct statuses of its samples, in the enumeration's order. */
export function sampleStatusesOf(entries: readonly { status: SampleStatus | null }[]): SampleStatus[] {
  return SAMPLE_STATUSES.filter((s) => entries.some((e) => e.status === s));
}

const sampleStatusProjection = defineEventConsumer({
  group: SAMPLE_STATUS_PROJECTION_GROUP,
  family: 'sample',
  apply: async (models: RequisitionModels, { data: d }) => {
    const changedOn = new Date(d.changedOn);
    const entry: SampleSummaryEntry = { id: d.sampleId, type: d.type, status: d.status, changedOn };
    const outcome = await setListEntry(models.Requisition, {
      requisitionId: d.requisitionId,
      list: 'samples',
      id: d.sampleId,
      changedField: 'changedOn',
      changedOn,
      notNewer: { changedOn: { $lte: changedOn } },
      set: { 'samples.$': entry },
      entry,
      inc: { samplesVersion: 1 },
      options: LOOSE,
    });
    if (outcome === 'gone') return 'ignored';
    await deriveSampleStatuses(models, d.requisitionId);
    return outcome === 'set' ? 'applied' : 'ignored';
  },
});

/**
 * The requisition keeps a summary of its samples (the lab service owns them): each `sample` event sets that
 * sample's entry (id, type, status, changedOn) and `sampleStatuses` is derived from all entries, so the orders
 * list's sample_status_facet and the Delete rule ("no sample ON_HOLD", checked in the delete's conditional
 * update) follow the lab. Idempotent: applying an event twice sets the same values; an event older than the
 * entry's last change is skipped (one sample's events arrive in order on its partition; this guards a replay).
 *
 * Step 1 changes only that sample's entry (in place, or pushed when absent: setListEntry) and bumps
 * `samplesVersion`; step 2 reads the entries and sets `sampleStatuses` conditional on the `samplesVersion` read,
 * so two events of different samples applied at once never leave a stale derived list (the loser reads again).
 */
export const applySampleStatus = sampleStatusProjection.apply;

/** Set `sampleStatuses` from the entries, conditional on the entries read (retried when they changed). */
export async function deriveSampleStatuses(models: RequisitionModels, requisitionId: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const doc = (await models.Requisition.findById(requisitionId, { samples: 1, samplesVersion: 1 }, LOOSE)
      .lean()
      .exec()) as { samples?: SampleSummaryEntry[]; samplesVersion?: number } | null;
    if (!doc) return;
    const version = doc.samplesVersion ?? null;
    const res = await models.Requisition.updateOne(
      { _id: requisitionId, samplesVersion: version },
      { $set: { sampleStatuses: sampleStatusesOf(doc.samples ?? []) } },
      LOOSE,
    ).exec();
    if (res.matchedCount) return;
  }
}

/** Start the projection's consumer (only in processes that run workers). */
export const startSampleStatusProjection = sampleStatusProjection.start;
