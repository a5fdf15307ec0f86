import { z } from 'zod';
import type { PlatformContext } from '@onco/platform';
import { DOC_UPLOAD_START_STATUSES } from '@onco/domain';
import type { BillingCaseDoc, BillingModels } from '../models';
import type { BillingDocumentsQueue } from './documents-queue';
import {
  applyFeedEntry,
  recordFeedSkip,
  type FeedApplyResult,
  type StatusFeedEntry,
} from './apply-feed-entry';

/**
 * The `billing-status-feed` queue (docs/billing-gateway.md "The status feed"): a job scheduler runs it every
 * BILLING_FEED_POLL_MS in whichever worker process takes the job. A run reads the cursor (`billing_feed_cursors`),
 * pages through the billing system's `GET /feed?after=<cursor>` with `Authorization: Bearer
 * <BILLING_GATEWAY_TOKEN>`, applies each entry in sequence order (apply-feed-entry.ts: exactly once, or skipped with
 * a reason), then moves the cursor to the page's last entry. Nothing blocks the feed: an entry that changes nothing
 * is recorded as skipped and the cursor passes it. A crash between applying and moving the cursor reads the page
 * again, which changes nothing twice.
 *
 * The billing system unreachable, refusing the token or answering what is not a feed page: the run ends without
 * moving the cursor (the next run tries again), and the process logs one line when that starts and one when it
 * ends (design.md rule 16), not one a run. A failure of the store fails the job (logged by the queue registry).
 */
export const BILLING_FEED_QUEUE = 'billing-status-feed';
/** The feed's cursor document (`billing_feed_cursors`). */
export const BILLING_FEED_CURSOR_ID = 'billing-status-feed';
/** Entries asked for per request. */
const PAGE = 100;
/** At most this many pages a run (5,000 entries); the next run goes on from there. */
const MAX_PAGES = 50;

const FeedEntrySchema = z.object({
  id: z.string().min(1).max(200),
  seq: z.number().int().positive(),
  key: z.string().min(1).max(200),
  status: z.string().min(1).max(100),
  errors: z
    .array(z.object({ code: z.string().max(200), message: z.string().max(10_000) }))
    .max(1000)
    .nullish(),
  note: z.string().max(10_000).nullish(),
});
const FeedPageSchema = z.object({
  entries: z.array(z.looseObject({ seq: z.number().int().positive() })),
  hasMore: z.boolean().optional(),
});

export interface FeedPollResult {
  /** `unreachable`: the feed could not be read (the cursor stays) */
  outcome: 'read' | 'unreachable';
  /** entries read, and what became of them */
  entries: number;
  applied: number;
  skipped: number;
  repeated: number;
  /** the cursor after the run */
  cursor: number;
  error?: string;
}

export interface BillingStatusFeed {
  name: typeof BILLING_FEED_QUEUE;
  /** one run: every page after the cursor (see above) */
  poll(): Promise<FeedPollResult>;
  /** apply one entry (what a run does to each entry it reads) */
  apply(entry: StatusFeedEntry): Promise<FeedApplyResult>;
  /** the cursor: the sequence number of the last entry applied or skipped (0 before any) */
  cursor(): Promise<number>;
  /** put the scheduler in place with BILLING_FEED_POLL_MS, or remove it when that is 0 */
  schedule(): Promise<void>;
}

/** The feed could not be read this time (network, timeout, an HTTP error, not a feed page). */
class FeedUnreachable extends Error {}

export function defineBillingStatusFeed(
  ctx: PlatformContext,
  opts: { models: BillingModels; documents?: Pick<BillingDocumentsQueue, 'start'> },
): BillingStatusFeed {
  const { models } = opts;
  const { BILLING_GATEWAY_URL, BILLING_GATEWAY_TOKEN, BILLING_GATEWAY_TIMEOUT_MS, BILLING_FEED_POLL_MS } =
    ctx.config;
  const log = ctx.logger.child({ queue: BILLING_FEED_QUEUE });
  const base = BILLING_GATEWAY_URL.replace(/\/+$/, '');
  const deps = { models, logger: log };
  const cursors = models.BillingFeedCursor;

  /** since when this process could not read the feed (null: it could); its outage is logged once */
  let down: string | null = null;

  async function fetchPage(after: number) {
    let res: Response;
    try {
      res = await fetch(`${base}/feed?after=${after}&limit=${PAGE}`, {
        headers: { authorization: `Bearer ${BILLING_GATEWAY_TOKEN}`, accept: 'application/json' },
        signal: AbortSignal.timeout(BILLING_GATEWAY_TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new FeedUnreachable(
        e.name === 'TimeoutError'
          ? `no answer within ${BILLING_GATEWAY_TIMEOUT_MS} ms`
          : `could not be reached: ${e.cause?.code ?? e.message}`,
      );
    }
    const text = await res.text().catch(() => '');
    if (res.status === 401 || res.status === 403)
      throw new FeedUnreachable(`refused BILLING_GATEWAY_TOKEN (HTTP ${res.status})`);
    if (!res.ok) throw new FeedUnreachable(`answered HTTP ${res.status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new FeedUnreachable('answered what is not JSON');
    }
    const page = FeedPageSchema.safeParse(body);
    if (!page.success) throw new FeedUnreachable('answered what is not a feed page');
    return page.data;
  }

  const cursor = async () =>
    (await cursors.findById(BILLING_FEED_CURSOR_ID, { seq: 1 }).lean().exec())?.seq ?? 0;

  /** move the cursor forward to `seq` (never back: $max, so a slower poller cannot undo a faster one) */
  async function advance(seq: number) {
    const write = () =>
      cursors.collection.updateOne(
        { _id: BILLING_FEED_CURSOR_ID } as never,
        { $max: { seq }, $set: { updatedOn: new Date() } },
        { upsert: true },
      );
    try {
      await write();
    } catch (err) {
      // two pollers creating the cursor at once: it exists now
      if ((err as { code?: number }).code !== 11000) throw err;
      await write();
    }
  }

  async function applyRaw(raw: Record<string, unknown> & { seq: number }): Promise<FeedApplyResult> {
    const parsed = FeedEntrySchema.safeParse(raw);
    if (parsed.success) return applyFeedEntry(deps, parsed.data);
    const id = typeof raw.id === 'string' && raw.id ? raw.id.slice(0, 200) : `seq-${raw.seq}`;
    const message = `The feed entry at ${raw.seq} is not of the contract's shape.`;
    const status = typeof raw.status === 'string' ? raw.status.slice(0, 100) : '?';
    const key = typeof raw.key === 'string' ? raw.key.slice(0, 200) : '?';
    const recorded = await recordFeedSkip(deps, { id, seq: raw.seq, key, status }, 'invalid-entry', message);
    return recorded
      ? { outcome: 'skipped', reason: 'invalid-entry', message }
      : { outcome: 'repeated', caseId: null };
  }

  async function poll(): Promise<FeedPollResult> {
    const result: FeedPollResult = {
      outcome: 'read',
      entries: 0,
      applied: 0,
      skipped: 0,
      repeated: 0,
      cursor: await cursor(),
    };
    try {
      for (let i = 0; i < MAX_PAGES; i++) {
        const page = await fetchPage(result.cursor);
        const entries = [...page.entries].sort((a, b) => a.seq - b.seq);
        for (const raw of entries) {
          const r = await applyRaw(raw);
          result.entries += 1;
          result[r.outcome] += 1;
          // a claim corrected in the billing system: its documents' round starts (DOC_UPLOAD_START_STATUSES)
          if (r.outcome === 'applied' && opts.documents && DOC_UPLOAD_START_STATUSES.includes(r.caseStatus))
            await opts.documents.start(
              await models.BillingCase.find({ _id: r.caseId }, { caseStatus: 1, submission: 1, documents: 1 })
                .lean<BillingCaseDoc[]>()
                .exec(),
            );
        }
        if (entries.length) {
          const last = entries.at(-1)!.seq;
          await advance(last);
          result.cursor = Math.max(result.cursor, last);
        }
        if (!(page.hasMore ?? entries.length >= PAGE) || !entries.length) break;
      }
    } catch (err) {
      if (!(err instanceof FeedUnreachable)) throw err;
      if (down === null) log.warn({ error: err.message }, `billing status feed unreachable: ${err.message}`);
      down = err.message;
      return { ...result, outcome: 'unreachable', error: err.message };
    } finally {
      if (result.applied) ctx.nudgeOutbox();
    }
    if (down !== null) log.info({ was: down }, 'billing status feed reachable again');
    down = null;
    if (result.entries) log.info({ ...result }, 'billing status feed read');
    return result;
  }

  const handle = ctx.queues.define<Record<string, never>>({
    name: BILLING_FEED_QUEUE,
    // a failed run is not retried: the next scheduled run reads from the same cursor
    attempts: 1,
    concurrency: 1,
    processor: async () => poll(),
  });

  return {
    name: BILLING_FEED_QUEUE,
    poll,
    apply: (entry) => applyFeedEntry(deps, entry),
    cursor,
    async schedule() {
      if (BILLING_FEED_POLL_MS > 0)
        await handle.queue.upsertJobScheduler(
          BILLING_FEED_QUEUE,
          { every: BILLING_FEED_POLL_MS },
          {
            name: BILLING_FEED_QUEUE,
            data: {},
            opts: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
          },
        );
      else await handle.queue.removeJobScheduler(BILLING_FEED_QUEUE);
    },
  };
}
