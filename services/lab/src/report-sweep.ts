import type { PlatformContext } from '@onco/platform';
import type { LabModels } from './models';
import { sweepExpiredReportUploads } from './use-cases';

/**
 * The `report-upload-sweep` queue: a job scheduler runs it every REPORT_UPLOAD_SWEEP_EVERY_MS (default 10
 * minutes) in whichever worker process takes the job, so report uploads that expired without being submitted
 * lose their record and their file even when no further upload arrives (the upload route also sweeps beside
 * its answer). One scheduler id for every process: adding it again only updates its interval, and BullMQ runs
 * each of its jobs once.
 */
export const REPORT_SWEEP_QUEUE = 'report-upload-sweep';
/** Uploads removed per store round trip (`sweepExpiredReportUploads`' page). */
const PAGE = 50;
/** At most this many pages a run (50,000 uploads); the next run goes on from there. */
const MAX_PAGES = 1000;

export interface ReportUploadSweep {
  /** one run: pages of expired uploads until a page comes back short; how many were removed */
  run(): Promise<number>;
  /** put the scheduler in place with the configured interval, or remove it when the interval is 0 */
  schedule(): Promise<void>;
}

export function defineReportUploadSweep(ctx: PlatformContext, models: LabModels): ReportUploadSweep {
  const every = ctx.config.REPORT_UPLOAD_SWEEP_EVERY_MS;
  async function run(): Promise<number> {
    let removed = 0;
    for (let i = 0; i < MAX_PAGES; i++) {
      const n = await sweepExpiredReportUploads({ models }, ctx.blobs, new Date(), PAGE);
      removed += n;
      if (n < PAGE) break;
    }
    if (removed) ctx.logger.info({ queue: REPORT_SWEEP_QUEUE, removed }, 'expired report uploads removed');
    return removed;
  }
  const handle = ctx.queues.define<Record<string, never>>({
    name: REPORT_SWEEP_QUEUE,
    // a failed run is not retried: the next scheduled run sweeps the same uploads
    attempts: 1,
    concurrency: 1,
    processor: async () => ({ removed: await run() }),
  });
  return {
    run,
    async schedule() {
      if (every > 0)
        await handle.queue.upsertJobScheduler(
          REPORT_SWEEP_QUEUE,
          { every },
          {
            name: REPORT_SWEEP_QUEUE,
            data: {},
            opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
          },
        );
      else await handle.queue.removeJobScheduler(REPORT_SWEEP_QUEUE);
    },
  };
}
