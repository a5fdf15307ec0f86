/**
 * The chainer (docs/audit.md "The chain"): moves recorded entries from the inbox onto the hash chain, oldest first,
 * in batches. One batch is one transaction: the head (`audit_chain` `head`, the last seq and hash) is taken and
 * advanced, the entries are inserted with their seq, previous hash and hash, they leave the inbox, and their
 * `audit` events wait in `audit_publish` for the outbox relay. Chainers in several processes are safe: the head is
 * advanced conditionally on the seq read (and seq and entry ids are unique), so a loser's batch is rolled back and
 * taken again.
 */
import type { Logger } from 'pino';
import { createEvent, toOutboxEntry } from '@onco/events';
import { AUDIT_GENESIS_HASH } from '@onco/domain';
import { inTransaction } from '../transaction';
import { chainEntries, type ChainedEntry } from './hash';
import { insertEntries, type AuditModels, type EntryDoc, type InboxDoc } from './models';
import { archiveExpired, retentionCutoff } from './retention';
import type { BlobStore } from '../blobs';
import type { AuditTrail } from './trail';

/** A lost race with another chainer: the transaction is rolled back and the batch taken again. */
class ChainMoved extends Error {}

/** The chain's head: the last entry's seq and hash (seq 0 and the genesis hash before the first). */
export async function chainHead(models: AuditModels): Promise<{ seq: number; hash: string }> {
  const head = await models.Chain.findById('head').lean().exec();
  return head ? { seq: head.seq, hash: head.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
}

/** The `audit` event of a chained entry (its id is the entry's id). */
export function auditEvent(e: ChainedEntry) {
  return createEvent(
    'audit',
    {
      data: {
        entryId: e.id,
        seq: e.seq,
        prevHash: e.prevHash,
        hash: e.hash,
        when: e.when.toISOString(),
        who: e.who,
        onBehalfOf: e.onBehalfOf,
        what: e.what,
        action: e.action,
        outcome: e.outcome,
        from: e.from,
        changes: e.changes,
        route: e.route,
        status: e.status,
        count: e.count,
      },
      traceId: e.from.requestId ?? undefined,
    },
    { newId: () => e.id, now: () => e.when },
  );
}

/**
 * One batch: the oldest `batch` entries of the inbox appended to the chain (and queued for Kafka). Returns how
 * many were appended (0 when the inbox is empty).
 */
export async function appendPending(models: AuditModels, opts: { batch?: number } = {}): Promise<number> {
  const conn = models.Entry.db;
  for (let round = 0; ; round++) {
    try {
      return await inTransaction(conn, async (session) => {
        const pending = await models.Inbox.find({}, null, { session })
          .sort({ when: 1, _id: 1 })
          .limit(opts.batch ?? 200)
          .lean<InboxDoc[]>()
          .exec();
        if (!pending.length) return 0;
        const head = await models.Chain.findById('head', null, { session }).lean().exec();
        const from = head ? { seq: head.seq, hash: head.hash } : { seq: 0, hash: AUDIT_GENESIS_HASH };
        const chained = chainEntries(
          from,
          pending.map(({ _id, ...e }) => ({ ...e, id: _id })),
        );
        const last = chained[chained.length - 1];
        const now = new Date();
        // the head first: it is the row two chainers meet on, so the loser waits or conflicts here
        const moved = head
          ? await models.Chain.updateOne(
              { _id: 'head', seq: from.seq, hash: from.hash },
              { $set: { seq: last.seq, hash: last.hash, updatedOn: now } },
              { session },
            )
          : await models.Chain.collection
              .insertOne({ _id: 'head', seq: last.seq, hash: last.hash, updatedOn: now } as never, {
                session,
              })
              .then(() => ({ modifiedCount: 1 }));
        if (moved.modifiedCount !== 1) throw new ChainMoved();
        await insertEntries(
          models,
          chained.map(({ id, ...e }) => ({ ...e, _id: id }) as EntryDoc),
          session,
        );
        const gone = await models.Inbox.deleteMany({ _id: { $in: pending.map((p) => p._id) } }, { session });
        if (gone.deletedCount !== pending.length) throw new ChainMoved();
        await models.Publish.collection.insertOne(
          {
            _id: `${chained[0].seq}-${last.seq}`,
            createdOn: now,
            outbox: chained.map((e) => toOutboxEntry(auditEvent(e))),
          } as never,
          { session },
        );
        return chained.length;
      });
    } catch (err) {
      // another chainer took the head or some of the entries first (a lost race, a duplicate key): again
      const duplicate = (err as { code?: number }).code === 11000;
      if (!(err instanceof ChainMoved) && !duplicate) throw err;
      if (round >= 20) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  }
}

/** Remove the `audit_publish` documents the relay has emptied (it removes the entries it published, not them). */
export async function dropPublished(models: AuditModels, olderThanMs = 60_000): Promise<number> {
  const res = await models.Publish.deleteMany({
    'outbox.0': { $exists: false },
    createdOn: { $lt: new Date(Date.now() - olderThanMs) },
  });
  return res.deletedCount ?? 0;
}

export interface ChainerOptions {
  logger: Logger;
  /** pause between passes when the inbox was empty (ms) */
  pollMs?: number;
  batch?: number;
  /** retention: entries older than `days` go to an archive file in `blobs`, a pass every `everyMs` (0: never) */
  retention?: { days: number; everyMs: number; blobs: BlobStore };
}

/** One archive pass of the chainer (retention.ts), logged when it archived or refused something. */
async function archivePass(trail: AuditTrail, opts: ChainerOptions): Promise<void> {
  const cutoff = opts.retention ? retentionCutoff(opts.retention.days) : null;
  if (!cutoff || !opts.retention) return;
  const res = await archiveExpired(trail.models, opts.retention.blobs, { before: cutoff });
  if (res.refused)
    opts.logger.error(
      { reason: res.refused },
      'audit entries past retention NOT archived: the chain is broken',
    );
  else if (res.archive)
    opts.logger.info(
      { fromSeq: res.archive.fromSeq, toSeq: res.archive.toSeq, blobId: res.archive.blobId },
      'audit entries past retention archived',
    );
}

/**
 * The chainer's loop, in processes that run workers: a pass when this process recorded entries (at once) or every
 * `pollMs` (entries other processes recorded). A failed pass (the store down) is logged once when the outage
 * starts and once when it ends; the entries wait in the inbox.
 */
export function startChainer(trail: AuditTrail, opts: ChainerOptions): { stop(): Promise<void> } {
  const pollMs = opts.pollMs ?? 250;
  let running = true;
  let wake: (() => void) | null = null;
  let nudged = false;
  let failingSince: number | null = null;
  let lastDrop = 0;
  let lastArchive = Date.now();
  const off = trail.onRecorded(() => {
    nudged = true;
    wake?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    }).finally(() => (wake = null));
  const loop = (async () => {
    while (running) {
      let appended = 0;
      try {
        nudged = false;
        appended = await appendPending(trail.models, { batch: opts.batch });
        if (Date.now() - lastDrop > 60_000) {
          lastDrop = Date.now();
          await dropPublished(trail.models);
        }
        const every = opts.retention?.everyMs ?? 0;
        if (every > 0 && Date.now() - lastArchive > every) {
          lastArchive = Date.now();
          await archivePass(trail, opts);
        }
        if (failingSince !== null) {
          opts.logger.info({ downMs: Date.now() - failingSince }, 'audit chainer recovered');
          failingSince = null;
        }
      } catch (err) {
        if (failingSince === null) {
          failingSince = Date.now();
          opts.logger.warn(
            { err: (err as Error).message },
            'audit chainer failing; entries wait in the inbox',
          );
        }
      }
      if (!running) break;
      if (appended === 0 && !nudged) await sleep(failingSince === null ? pollMs : 1_000);
    }
  })();
  return {
    async stop() {
      running = false;
      off();
      wake?.();
      await loop;
    },
  };
}
