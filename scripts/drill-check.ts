/**
 * The fault drill's proofs and figures (scripts/drill.ts): once the processes have worked off what the load left
 * them, what the store, Kafka and the billing gateway stand-in hold is compared with what the servers accepted.
 */
import { createConnection } from 'mongoose';
import { Kafka, logLevel } from 'kafkajs';
import { IN_FLIGHT_CASE_STATUSES } from '@onco/domain';
import { topicFor, withPrefix } from '@onco/events';
import type { Config } from '@onco/platform';
import type { GatewayStandin } from '@onco/billing';
import { collectMessages } from '@onco/testing';
import type { Recorder, ServerError, Submitted } from './drill-load';

export interface FaultRecord {
  kind: 'kafka' | 'redis' | 'store' | 'kill-server' | 'kill-worker';
  /** when the fault began, and when the dependency or process was back */
  start: number;
  back: number;
  process?: string;
}

interface Window {
  submits: number;
  p50: number | null;
  p95: number | null;
  perSecond: number;
}

export interface FaultFigures extends FaultRecord {
  during: Window;
  /**
   * per path (consumers: the test order; workers: the TRF PDF): the requisitions accepted before the return whose
   * record was made after it, and the time from the return until the first of them was made (the path flows
   * again) and until the last was (caught up); null: no backlog
   */
  consumers: PathCatchUp;
  workers: PathCatchUp;
}

export interface PathCatchUp {
  backlog: number;
  resumedMs: number | null;
  caughtUpMs: number | null;
}

export interface Proof {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DrillResult {
  ok: boolean;
  proofs: Proof[];
  baseline: Window;
  faults: FaultFigures[];
  /** from an accepted submit to its test order (consumers) and its TRF (workers) with no fault, p95 (ms) */
  latencyP95: { consumers: number | null; workers: number | null };
  serverErrors: { allowed: number; refused: ServerError[] };
  counts: {
    submits: number;
    late: number;
    statusChanges: number;
    billingSubmits: number;
    networkErrors: number;
    /** requisition-submitted messages on the topic (an event delivered twice, at least once, counts twice) */
    submittedMessages: number;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
function windowOf(submits: Submitted[], from: number, to: number): Window {
  const inside = submits.filter((s) => s.at >= from && s.at < to);
  return {
    submits: inside.length,
    p50: pct(
      inside.map((s) => s.ms),
      50,
    ),
    p95: pct(
      inside.map((s) => s.ms),
      95,
    ),
    perSecond: inside.length / Math.max(1, (to - from) / 1000),
  };
}

/** a billing case whose submission is still on its way (the domain's rule) */
const SENDING: readonly string[] = IN_FLIGHT_CASE_STATUSES;
/** a store outage's 5xx are allowed from its start until shortly after it is back (connections re-made) */
const STORE_GRACE_MS = 10_000;

export async function checkDrill(o: {
  config: Config;
  gateway: GatewayStandin;
  rec: Recorder;
  faults: FaultRecord[];
  loadStarted: number;
  log: (s: string) => void;
}): Promise<DrillResult> {
  const { config, gateway, rec, faults, log } = o;
  const conn = await createConnection(config.MONGO_URL).asPromise();
  const db = conn.db!;
  const requisitionIds = rec.submits.map((s) => s.requisitionId);
  const testOrderIds = rec.submits.flatMap((s) => s.testOrderIds);
  const caseIds = rec.billingSubmits.map((b) => b.caseId);
  try {
    // everything accepted worked off: the test orders and TRFs made, every billing case answered (10 minutes at most)
    log('waiting for the worker to work off the load...');
    const deadline = Date.now() + 600_000;
    for (;;) {
      const orders = await db
        .collection('test_orders')
        .countDocuments({ _id: { $in: testOrderIds as never[] } });
      const trfs = (
        await db.collection('attachments').distinct('testOrderForm.id', {
          type: 'TRF',
          deleted: { $ne: true },
          'testOrderForm.id': { $in: requisitionIds },
        })
      ).length;
      const sending = await db
        .collection('billing_cases')
        .countDocuments({ _id: { $in: caseIds as never[] }, caseStatus: { $in: SENDING } });
      if (orders === testOrderIds.length && trfs === requisitionIds.length && sending === 0) break;
      if (Date.now() > deadline) {
        log(
          `not worked off after 10 minutes: ${orders}/${testOrderIds.length} test orders, ${trfs}/${requisitionIds.length} TRFs, ${sending} billing cases being sent`,
        );
        break;
      }
      await sleep(1_000);
    }

    // what reached Kafka, from the beginning of the two topics
    const kafka = new Kafka({
      clientId: `${config.QUEUE_PREFIX}-check`,
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const topics = [
      topicFor('requisition-submitted', config.TOPIC_PREFIX),
      topicFor('test-status', config.TOPIC_PREFIX),
    ];
    const collector = await collectMessages(kafka, topics, `${config.QUEUE_PREFIX}-drill-check`);
    await collector.drained({ timeoutMs: 120_000 });
    await collector.stop();
    const events = collector.messages.map((m) => ({ topic: m.topic, e: JSON.parse(m.value ?? 'null') }));
    const submittedEvents = new Map<string, Set<string>>();
    let submittedMessages = 0;
    const statusEvents = new Map<string, Set<string>>();
    for (const { topic, e } of events) {
      if (!e?.data) continue;
      if (topic === topics[0]) {
        submittedMessages += 1;
        const set = submittedEvents.get(e.data.requisitionId) ?? new Set<string>();
        submittedEvents.set(e.data.requisitionId, set.add(e.id));
      } else if (e.data.status !== e.data.previousStatus) {
        const k = `${e.data.testOrderId} ${e.data.status}`;
        statusEvents.set(k, (statusEvents.get(k) ?? new Set<string>()).add(e.id));
      }
    }

    const proofs: Proof[] = [];
    const proof = (name: string, bad: string[], total: number) =>
      proofs.push({
        name,
        ok: bad.length === 0,
        detail: bad.length
          ? `${bad.length} of ${total}: ${bad.slice(0, 5).join('; ')}`
          : `${total} of ${total}`,
      });

    const stored = await db
      .collection('test_order_forms')
      .find({ _id: { $in: requisitionIds as never[] } }, { projection: { status: 1 } })
      .toArray();
    const status = new Map(stored.map((d) => [String(d._id), d.status]));
    proof(
      'every accepted requisition is stored as SUBMITTED',
      requisitionIds.filter((id) => status.get(id) !== 'SUBMITTED'),
      requisitionIds.length,
    );
    proof(
      'every accepted submit has exactly one requisition-submitted event',
      requisitionIds
        .filter((id) => submittedEvents.get(id)?.size !== 1)
        .map((id) => `${id}: ${submittedEvents.get(id)?.size ?? 0}`),
      requisitionIds.length,
    );
    const orders = await db
      .collection('test_orders')
      .aggregate<{ _id: string; ids: string[]; first: Date }>([
        { $match: { 'testOrderForm.id': { $in: requisitionIds } } },
        { $group: { _id: '$testOrderForm.id', ids: { $push: '$_id' }, first: { $min: '$createdOn' } } },
      ])
      .toArray();
    const ordersOf = new Map(orders.map((g) => [g._id, g]));
    proof(
      'every accepted submit has one test order per chosen test',
      rec.submits
        .filter((s) => {
          const got = ordersOf.get(s.requisitionId)?.ids.map(String).sort() ?? [];
          return got.join() !== [...s.testOrderIds].sort().join();
        })
        .map(
          (s) =>
            `${s.requisitionId}: ${ordersOf.get(s.requisitionId)?.ids.length ?? 0} of ${s.testOrderIds.length}`,
        ),
      rec.submits.length,
    );
    const trfs = await db
      .collection('attachments')
      .aggregate<{ _id: string; n: number; first: Date }>([
        { $match: { type: 'TRF', deleted: { $ne: true }, 'testOrderForm.id': { $in: requisitionIds } } },
        { $group: { _id: '$testOrderForm.id', n: { $sum: 1 }, first: { $min: '$createdOn' } } },
      ])
      .toArray();
    const trfOf = new Map(trfs.map((g) => [g._id, g]));
    proof(
      'every accepted submit has one current TRF',
      requisitionIds.filter((id) => trfOf.get(id)?.n !== 1).map((id) => `${id}: ${trfOf.get(id)?.n ?? 0}`),
      requisitionIds.length,
    );
    proof(
      'every accepted test status change has exactly one test-status event',
      rec.statusChanges
        .filter((c) => statusEvents.get(`${c.testOrderId} ${c.status}`)?.size !== 1)
        .map(
          (c) =>
            `${c.testOrderId} ${c.status}: ${statusEvents.get(`${c.testOrderId} ${c.status}`)?.size ?? 0}`,
        ),
      rec.statusChanges.length,
    );
    const cases = await db
      .collection('billing_cases')
      .find({ _id: { $in: caseIds as never[] } }, { projection: { caseStatus: 1, submission: 1 } })
      .toArray();
    const claims = gateway.claims();
    proof(
      'every billing submit has exactly one claim per generation at the billing system, and an answer',
      cases
        .filter((c) => {
          const g = (c.submission as { generation?: number } | null)?.generation ?? 0;
          const mine = claims.filter((k) => k.key.startsWith(`${String(c._id)}:`));
          const perGeneration = Array.from(
            { length: g },
            (_, i) => mine.filter((k) => k.key === `${String(c._id)}:${i + 1}`).length,
          );
          return (
            g < 1 || perGeneration.some((n) => n !== 1) || mine.length !== g || SENDING.includes(c.caseStatus)
          );
        })
        .map((c) => `${String(c._id)}: ${c.caseStatus}`)
        .concat(caseIds.length > cases.length ? [`${caseIds.length - cases.length} cases missing`] : []),
      caseIds.length,
    );
    const storeWindows = faults
      .filter((f) => f.kind === 'store')
      .map((f) => [f.start, f.back + STORE_GRACE_MS]);
    const allowed = (e: ServerError) =>
      storeWindows.some(([a, b]) => e.at >= a && e.at <= b) || (e.status === 503 && !!e.dependency);
    const refused = rec.serverErrors.filter((e) => !allowed(e));
    proofs.push({
      name: 'outside the store outage, no 5xx but a 503 naming the dependency that is down',
      ok: refused.length === 0,
      detail: refused.length
        ? `${refused.length} other: ${[...new Set(refused.map((e) => `${e.status} ${e.code} ${e.method} ${e.path}: ${e.message}`))].slice(0, 6).join('; ')}`
        : `${rec.serverErrors.length} 5xx, all allowed`,
    });

    // figures: submit latency and throughput with no fault and during each; the catch-up after each return, of
    // the consumers (the lab's consumer of the requisition-submitted event, which makes the test orders) and of the workers (the TRF
    // PDF, a BullMQ job)
    const madeAt = (d: Date | undefined) => (d ? +new Date(d) : null);
    // when the lab's consumer processed each requisition-submitted event (its marker; the test order itself
    // carries the event's time)
    const processed = await db
      .collection('processed_events')
      .find(
        {
          groupId: withPrefix('lab.requisition-submitted', config.TOPIC_PREFIX),
          subject: { $in: requisitionIds },
        },
        { projection: { subject: 1, processedOn: 1 } },
      )
      .toArray();
    const consumedAt = new Map(processed.map((d) => [String(d.subject), d.processedOn as Date]));
    const paths = {
      consumers: (id: string) => madeAt(consumedAt.get(id)),
      workers: (id: string) => madeAt(trfOf.get(id)?.first),
    };
    const first = faults[0]?.start ?? Date.now();
    const baselineSubmits = rec.submits.filter((s) => s.at < first);
    const latency = (path: keyof typeof paths) =>
      pct(
        baselineSubmits.map((s) => (paths[path](s.requisitionId) ?? s.at) - s.at),
        95,
      );
    const catchUp = (f: FaultRecord, path: keyof typeof paths) => {
      const backlog = rec.submits.filter(
        (s) => s.at <= f.back && (paths[path](s.requisitionId) ?? 0) > f.back,
      );
      const made = backlog.map((s) => paths[path](s.requisitionId)!);
      const last = Math.max(f.back, ...made);
      return {
        backlog: backlog.length,
        ms: backlog.length ? last - f.back : null,
        firstMs: backlog.length ? Math.min(...made) - f.back : null,
        last,
      };
    };
    const figures: FaultFigures[] = faults.map((f, i) => {
      const consumers = catchUp(f, 'consumers');
      const workers = catchUp(f, 'workers');
      const end = Math.min(faults[i + 1]?.start ?? Date.now(), Math.max(consumers.last, workers.last));
      return {
        ...f,
        during: windowOf(rec.submits, f.start, Math.max(end, f.back)),
        consumers: { backlog: consumers.backlog, resumedMs: consumers.firstMs, caughtUpMs: consumers.ms },
        workers: { backlog: workers.backlog, resumedMs: workers.firstMs, caughtUpMs: workers.ms },
      };
    });
    return {
      ok: proofs.every((p) => p.ok),
      proofs,
      baseline: windowOf(rec.submits, o.loadStarted, first),
      faults: figures,
      latencyP95: { consumers: latency('consumers'), workers: latency('workers') },
      serverErrors: { allowed: rec.serverErrors.length - refused.length, refused },
      counts: {
        submits: rec.submits.length,
        late: rec.submits.filter((s) => s.late).length,
        statusChanges: rec.statusChanges.length,
        billingSubmits: rec.billingSubmits.length,
        networkErrors: rec.networkErrors,
        submittedMessages,
      },
    };
  } finally {
    await conn.close();
  }
}
